import Foundation
import VellumStore

/// `vellum generate MODEL [--output DIR]`: Swift classes for a model's entities.
struct GenerateCommand: Command {
    static let name = "generate"
    static let summary = "Write Swift classes for a model's entities (typed properties, fetches, predicates)"
    static let help = """
        Usage: vellum generate MODEL [--output DIR]

        Reads MODEL (a JSON model, an .xcdatamodeld or .xcdatamodel folder, or an Xcode
        'contents' XML file) and writes one Swift type per entity, as Xcode generates
        NSManagedObject subclasses: typed properties with the model's optionality,
        typed to-one and to-many relationships (ordered ones keep their order),
        classes for an inheritance hierarchy (sub-entities as subclasses) and structs
        for other entities, and the key-path table behind typed predicates and sorts
        (`ctx.fetch(Book.self, where: \\.price < 5)`). See docs/guide.md.

        Options:
          --output DIR  write DIR/NAME.swift (NAME: the model file's name without its
                        extensions); DIR is created; only a file written by this
                        command is replaced. Without it the source goes to stdout.
          --help        show this help

        """
    static let spec = ArgumentSpec(flags: [], options: ["output"])

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let path = try VellumCLI.positionals(arguments, ["MODEL"], command: name)[0]
        guard FileManager.default.fileExists(atPath: path) else { throw CLIError.runtime("\(path): no such file or directory") }
        let url = URL(fileURLWithPath: path)
        let generator = try SwiftEntityGenerator(modelAt: url)
        if let output = arguments.option("output") {
            let file = try generator.write(into: URL(fileURLWithPath: output), fileName: SwiftEntityGenerator.outputFileName(forModelAt: url))
            console.err("vellum: wrote \(file.path)\n")
        } else {
            console.out(generator.generate())
        }
    }
}
