import Foundation
import VellumStore

// A library catalogue: typed entities generated from Library.vellum.json, writes on the
// write queue, a typed fetch. Run it twice: the second run finds the books the first saved.
let modelURL = Bundle.module.url(forResource: "Library.vellum", withExtension: "json")!
let model = try ModelLoader.load(from: modelURL)
let storeURL = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "library.sqlite")
let container = try PersistentContainer(model: model, storeURL: storeURL)

try await container.enqueue { ctx in
    // Titles are unique: add the books only once, however often this runs.
    guard try ctx.fetch(Book.self, where: \.title == "The Dispossessed").isEmpty else { return }
    let author = try Author(context: ctx)
    author.name = "Ursula K. Le Guin"
    author.born = 1929
    for (title, price) in [("The Dispossessed", 4.5), ("The Left Hand of Darkness", 7.0)] {
        let book = try Book(context: ctx)
        book.title = title
        book.price = price
        book.author = author
        book.tags = ["sf", "anarchism"]   // a transformable typed [String] by the model ("class"), stored as JSON
        for chapter in ["One", "Two"] {
            let c = try Chapter(context: ctx)
            c.title = chapter
            book.addToChapters(c)
        }
    }
}

let titles = try await container.enqueue { ctx in
    try ctx.fetch(Book.self, where: \.price < 5 && \.author?.name == "Ursula K. Le Guin", sortedBy: [.ascending(\.title)])
        .map { "\($0.title) (\($0.chapters.count) chapters; \(($0.tags ?? []).joined(separator: ", ")))" }
}
print(titles.joined(separator: "\n"))
