import Foundation
import Testing
@testable import VellumStore

/// Issue 16: the generated classes compile (for every fixture model, on copies) and
/// a program using them — `Book(context:)`, typed properties and relationships,
/// `ctx.fetch(Book.self, where: \.price < 5 && \.author?.name == …)` — runs.
@Suite struct GeneratedCodeBuildTests {
    static let program = """
    import Foundation
    import VellumStore

    /// The Codable type the model names for Book.size (`"class": "BookSize"`).
    struct BookSize: Codable, Equatable { var width: Double; var height: Double; var unit: String }

    let arguments = CommandLine.arguments
    let model = try ModelLoader.load(from: URL(fileURLWithPath: arguments[2]))
    let store = try PersistentStore(url: URL(fileURLWithPath: arguments[1]), model: model)
    let ctx = try ManagedObjectContext(store: store)
    let author = try Author(context: ctx)
    author.name = "Le Guin"
    author.born = 1929
    let book = try Book(context: ctx)
    book.title = "The Dispossessed"
    book.price = 4.5
    book.author = author
    book.tags = ["utopia", "sf"]
    book.size = BookSize(width: 13, height: 20, unit: "cm")
    for title in ["One", "Two", "Three"] {
        let chapter = try Chapter(context: ctx)
        chapter.title = title
        book.addToChapters(chapter)
    }
    let dear = try Book(context: ctx)
    dear.title = "Expensive"
    dear.price = 50
    try ctx.save()

    let reader = try ManagedObjectContext(store: store)
    let cheap = try reader.fetch(Book.self, where: \\.price < 5 && \\.author?.name == "Le Guin", sortedBy: [.ascending(\\.title)])
    print("cheap:", cheap.map(\\.title))
    print("chapters:", cheap[0].chapters.map(\\.title))
    print("author:", cheap[0].author?.name ?? "nil", cheap[0].author?.born ?? 0, cheap[0].author?.books.count ?? 0)
    print("tags:", cheap[0].tags ?? [], cheap[0].size?.height ?? 0)
    print("by author:", try reader.fetch(Book.self, where: \\.author == cheap[0].author!).count)
    let people = try reader.fetch(Person.self)
    print("people:", people.count, people.first?.as(Author.self)?.born ?? 0)
    let typed = try (\\Book.price < 5 && \\Book.author?.name == "Le Guin").predicate()
    print("same tree:", typed == (try VellumStore.QueryPredicate(format: "price < 5.0 AND author.name == 'Le Guin'")))
    """

    @Test func generatedClassesCompileAndAProgramUsingThemRuns() throws {
        let compiler = try SwiftCompiler()
        let dir = TempDir()
        // Every fixture model: generated on a copy, type-checked, the original untouched.
        let models = try FileManager.default.contentsOfDirectory(at: SharedFixtures.directory.appendingPathComponent("models"),
                                                                  includingPropertiesForKeys: nil).sorted { $0.path < $1.path }
        for original in models {
            let before = try Data(contentsOf: original)
            let copy = dir.file(original.lastPathComponent)
            try FileManager.default.copyItem(at: original, to: copy)
            let file = try SwiftEntityGenerator(modelAt: copy).write(into: dir.file("gen-\(original.lastPathComponent)"),
                                                                     fileName: SwiftEntityGenerator.outputFileName(forModelAt: copy))
            let failure = try compiler.typecheck([file])
            #expect(failure == nil, "\(original.lastPathComponent):\n\(failure ?? "")")
            #expect(try Data(contentsOf: original) == before)
        }

        // The library model: built with a program and run.
        let modelURL = try LibraryModel.write(into: dir)
        let generated = try SwiftEntityGenerator(modelAt: modelURL).write(into: dir.file("lib"), fileName: "Library.swift")
        let main = dir.file("main.swift")
        try Self.program.write(to: main, atomically: true, encoding: .utf8)
        let executable = dir.file("program")
        let failure = try compiler.build([generated, main], into: executable)
        try #require(failure == nil, "\(failure ?? "")")

        let run = try runProgram(executable, [dir.path("library.sqlite"), modelURL.path])
        let output = run.output
        #expect(run.status == 0, "\(output)")
        #expect(output == """
            cheap: ["The Dispossessed"]
            chapters: ["One", "Two", "Three"]
            author: Le Guin 1929 1
            tags: ["utopia", "sf"] 20.0
            by author: 1
            people: 1 1929
            same tree: true

            """, "\(output)")
    }
}
