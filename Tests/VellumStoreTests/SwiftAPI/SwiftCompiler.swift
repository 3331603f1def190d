import Foundation
@testable import VellumStore

/// Compiles Swift source against the VellumStore this test process was built with:
/// the built module and object files of `.build/<triple>/debug`, so a program using
/// the library builds in seconds instead of a package build of several minutes.
struct SwiftCompiler {
    let buildDirectory: URL
    let packageRoot: URL

    init() throws {
        // The test bundle lives in the build directory (`.build/<triple>/debug`).
        let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        buildDirectory = executable.deletingLastPathComponent()
        packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The flags that let `import VellumStore` resolve (the module and its C modules).
    private var importFlags: [String] {
        let sources = packageRoot.appendingPathComponent("Sources")
        var flags = ["-swift-version", "6", "-I", buildDirectory.appendingPathComponent("Modules").path, "-I/usr/include/postgresql"]
        for map in [sources.appendingPathComponent("CSQLite/module.modulemap"), sources.appendingPathComponent("CZlib/module.modulemap"),
                    buildDirectory.appendingPathComponent("CLibPQ.build/module.modulemap"),
                    buildDirectory.appendingPathComponent("CSQLiteShim.build/module.modulemap"),
                    buildDirectory.appendingPathComponent("CSHA256.build/module.modulemap")] {
            flags += ["-Xcc", "-fmodule-map-file=\(map.path)"]
        }
        return flags + ["-Xcc", "-I", "-Xcc", sources.appendingPathComponent("CSQLiteShim/include").path,
                        "-Xcc", "-I", "-Xcc", sources.appendingPathComponent("CLibPQ/include").path,
                        "-Xcc", "-I", "-Xcc", sources.appendingPathComponent("CSHA256/include").path]
    }

    /// Whether this process runs under ThreadSanitizer (then the library's objects are instrumented).
    private var sanitizesThreads: Bool { dlsym(nil, "__tsan_init") != nil }

    /// The target's object files — only those of sources that still exist: an
    /// incremental build leaves the object of a renamed or deleted file behind, and
    /// linking it too would define its symbols twice.
    private func objects(of target: String) throws -> [String] {
        let dir = buildDirectory.appendingPathComponent("\(target).build")
        let sourceDir = packageRoot.appendingPathComponent("Sources/\(target)").path
        let sources = Set((FileManager.default.subpaths(atPath: sourceDir) ?? []).map { URL(fileURLWithPath: $0).lastPathComponent })
        return try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".o") && (sources.contains(String($0.dropLast(2))) || $0 == "\(target).swiftmodule.o") }
            .sorted().map { dir.appendingPathComponent($0).path }
    }

    /// Type-checks `files` as one module; returns the compiler's output, nil when it succeeded.
    func typecheck(_ files: [URL]) throws -> String? {
        let (status, output) = try run(["-typecheck"] + importFlags + files.map(\.path))
        return status == 0 && !output.contains("warning:") ? nil : output
    }

    /// Compiles and links `files` into an executable at `output`; the compiler's output on failure.
    func build(_ files: [URL], into output: URL) throws -> String? {
        var args = importFlags + ["-module-name", "Program", "-o", output.path] + files.map(\.path)
        args += try objects(of: "VellumStore") + objects(of: "CSQLiteShim") + objects(of: "CLibPQ") + objects(of: "CSHA256")
        args += ["-L/usr/lib/x86_64-linux-gnu", "-lsqlite3", "-lz"]
        if sanitizesThreads { args.append("-sanitize=thread") }
        let (status, text) = try run(args)
        return status == 0 && !text.contains("warning:") ? nil : text
    }

    private func run(_ arguments: [String]) throws -> (Int32, String) {
        let result = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["swiftc"] + arguments)
        return (result.status, result.output)
    }
}
