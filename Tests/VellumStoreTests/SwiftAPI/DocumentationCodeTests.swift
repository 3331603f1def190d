import Foundation
import Testing
@testable import VellumStore

/// Issue 16: the README sample did not compile as written (no `import Foundation`) and
/// failed on a second run. Every Swift block of README.md and docs/*.md (except those
/// fenced as `swift fragment`) is compiled here, in one module with the classes generated
/// from the example's model; the README's sample is the program, run twice in a row.
@Suite struct DocumentationCodeTests {
    struct Block {
        var file: String
        var line: Int
        var code: String
    }

    /// The ```swift blocks of a Markdown file (not ```swift fragment).
    static func blocks(in url: URL) throws -> [Block] {
        var blocks: [Block] = [], current: [String]?, start = 0
        for (i, line) in try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n").enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
                start = i + 1
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(Block(file: url.lastPathComponent, line: start, code: current!.joined(separator: "\n")))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static let declarationStarts = ["import ", "func ", "struct ", "class ", "final class ", "enum ", "extension ", "protocol ",
                                    "actor ", "typealias ", "@", "public ", "private ", "fileprivate ", "internal ", "//", "}", ")", "]"]

    /// A block of declarations stays as it is; one with statements becomes a function's body.
    static func source(of block: Block, number: Int) -> String {
        let lines = block.code.components(separatedBy: "\n")
        let topLevel = lines.filter { !$0.isEmpty && !$0.hasPrefix(" ") }
        if topLevel.allSatisfy({ line in declarationStarts.contains { line.hasPrefix($0) } }) {
            return "// \(block.file):\(block.line)\n" + block.code + "\n"
        }
        let imports = lines.filter { $0.hasPrefix("import ") }
        let body = lines.filter { !$0.hasPrefix("import ") }.map { "    " + $0 }
        return (imports + ["// \(block.file):\(block.line)", "func documentationBlock\(number)() async throws {"] + body + ["}"])
            .joined(separator: "\n") + "\n"
    }

    @Test func theDocumentsSwiftBlocksCompileAndTheReadmeSampleRunsTwice() throws {
        let compiler = try SwiftCompiler()
        let root = compiler.packageRoot
        let readme = try Self.blocks(in: root.appendingPathComponent("README.md"))
        try #require(readme.count == 1, "README.md has one Swift sample")
        let docs = try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent("docs"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
        let blocks = try docs.flatMap { try Self.blocks(in: $0) }
        #expect(blocks.contains { $0.file == "guide.md" })

        let dir = TempDir()
        var files = [dir.file("main.swift")]
        try (readme[0].code + "\n").write(to: files[0], atomically: true, encoding: .utf8)
        for (i, block) in blocks.enumerated() {
            let file = dir.file("block\(i).swift")
            try Self.source(of: block, number: i).write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        // The guide's typed entities: generated from the example's model.
        let model = root.appendingPathComponent("Examples/Library/Sources/Library/Library.vellum.json")
        files.append(try SwiftEntityGenerator(modelAt: model).write(into: dir.file("generated"), fileName: "Library.swift"))

        let program = dir.file("readme")
        let failure = try compiler.build(files, into: program)
        try #require(failure == nil, "\(failure ?? "")")

        let work = dir.file("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        for run in 1...2 {
            let result = try runProgram(program, in: work)
            let output = result.output
            #expect(result.status == 0, "run \(run): \(output)")
            #expect(output == "[\(Array(repeating: "Tea", count: run).joined(separator: ", "))]\n", "run \(run): \(output)")
        }
    }
}
