import Foundation
import VellumStore

/// Entry points the `vellum` CLI calls once its one argument parser
/// (`Sources/vellum/Arguments.swift`) has read the options: `browse FILE`,
/// `demo`, and the internal `demo-writer FILE`.
public enum AppCommands {
    /// `model`: `--model NEW`, loaded by the CLI, and the name the user gave it.
    /// `mouse`: false for `--no-mouse`.
    public static func browse(path: String, theme: String?, readOnly: Bool,
                              model: (model: ManagedObjectModel, name: String)? = nil, mouse: Bool = true,
                              enforcesForeignKeys: Bool = true) async -> Int32 {
        await runBrowser(path: path, theme: theme, readOnly: readOnly, model: model, mouse: mouse, enforcesForeignKeys: enforcesForeignKeys)
    }

    public static func demo(theme: String?, mouse: Bool = true) async -> Int32 {
        let url: URL
        do { url = try demoStoreURL() } catch {
            VellumBrowser.printError("vellum: cannot create the demo store: \(ErrorText.describe(error))")
            return 1
        }
        // A second process writing to the store shows live updates.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: executablePath())
        writer.arguments = ["demo-writer", url.path]
        writer.standardOutput = FileHandle.nullDevice
        writer.standardError = FileHandle.nullDevice
        writer.standardInput = FileHandle.nullDevice
        try? writer.run()
        let status = await runBrowser(path: url.path, theme: theme, demo: true, mouse: mouse)
        if writer.isRunning { kill(writer.processIdentifier, SIGTERM) }
        // Reaped here: a child left to exit after its parent stays `<defunct>` where init does not reap.
        if writer.processIdentifier > 0 { writer.waitUntilExit() }
        return status
    }

    public static func demoWriter(arguments: [String]) -> Int32 {
        guard let path = arguments.first else {
            VellumBrowser.printError("usage: vellum demo-writer FILE")
            return 2
        }
        // Default signal handling even if the parent ignored or blocked them.
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigprocmask(SIG_SETMASK, &set, nil)
        // Exit with the browser that started it, however it ended.
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { Thread.sleep(forTimeInterval: 0.2) }
            exit(0)
        }
        do { try DemoWriter.run(storePath: path) } catch {
            VellumBrowser.printError("vellum demo-writer: \(ErrorText.describe(error))")
            return 1
        }
        return 0
    }

    @MainActor
    private static func runBrowser(path: String, theme: String?, readOnly: Bool = false,
                                   model: (model: ManagedObjectModel, name: String)? = nil, demo: Bool = false,
                                   mouse: Bool = true, enforcesForeignKeys: Bool = true) async -> Int32 {
        do {
            return try await VellumBrowser.run(storePath: path, themeName: theme, readOnly: readOnly, model: model, demo: demo, mouse: mouse,
                                               enforcesForeignKeys: enforcesForeignKeys)
        } catch {
            VellumBrowser.printError("vellum: \(ErrorText.describe(error))")
            return 1
        }
    }

    /// `$XDG_DATA_HOME/vellum/demo.sqlite` (or ~/.local/share/…), reused if present; else a temp dir.
    static func demoStoreURL() throws -> URL {
        let env = ProcessInfo.processInfo.environment
        let fm = FileManager.default
        var candidates: [URL] = []
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty { candidates.append(URL(fileURLWithPath: xdg).appendingPathComponent("vellum")) }
        else if let home = env["HOME"], !home.isEmpty { candidates.append(URL(fileURLWithPath: home).appendingPathComponent(".local/share/vellum")) }
        candidates.append(fm.temporaryDirectory.appendingPathComponent("vellum-demo-\(getuid())"))
        var lastError: Error?
        for dir in candidates {
            let file = dir.appendingPathComponent("demo.sqlite")
            if fm.fileExists(atPath: file.path) { return file }
            do {
                try fm.createDirectory(at: dir, withIntermediateDirectories: true)
                try DemoStore.create(at: file)
                return file
            } catch { lastError = error }
        }
        throw lastError ?? StoreError.invalidOperation("no writable directory for the demo store")
    }

    static func executablePath() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return CommandLine.arguments[0]
    }
}
