import Foundation
import VellumStore

/// `vellum model PATH [--json]`: prints a model.
struct ModelCommand: Command {
    static let name = "model"
    static let summary = "Print a model (JSON, Xcode model, or the model of a store)"
    static let help = """
        Usage: vellum model PATH [--json] [--read-only]
               vellum model CORE-DATA-STORE [--model XCODE-MODEL] [--json] [--xcdatamodel DIR]
               vellum model OLD --diff NEW

        Prints the model read from PATH, which may be:
          - a JSON model file,
          - an .xcdatamodeld or .xcdatamodel folder, or a bare Xcode 'contents' XML file,
          - a Vellum store file (its stored model is shown; the store is always opened
            read-only and nothing is created beside it), or a PostgreSQL store's URL
            (postgresql://user@host/db?schema=name),
          - a Core Data SQLite store: its model is recovered from the file (its model
            cache, or inferred from its schema, saying which parts are guesses) and the
            source is named; the file is never changed,
          - any other SQLite database (the model inferred from its schema; tables left
            out are named on stderr; save it with --json and pass it back with
            --model to query, insert, update, delete and watch as a mapping).

        Options:
          --json    print the model in Vellum's JSON model format
          --diff NEW  print what changes from the model at PATH to the model at NEW, in
                    words, following renaming identifiers (either may be a store)
          --read-only  accepted for symmetry with the other reading commands
          --model XCODE-MODEL  (Core Data store) use this Xcode model instead, accepted only
                    when its version hashes equal the store's (else the entities that differ
                    are named)
          --xcdatamodel DIR  (Core Data store) also write the model as an Xcode model:
                    DIR/contents (DIR is created; an existing contents file is refused)
        \(StoreArguments.help)
          --help    show this help

        """
    static let spec = ArgumentSpec(flags: ["json", ReadOnlyNotice.flag, StoreArguments.noForeignKeysFlag], options: CoreDataModelOutput.options.union(["diff"]))

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let path = try VellumCLI.positionals(arguments, ["PATH"], command: name)[0]
        if try CoreDataModelOutput.run(path: path, arguments, console: console) { return }
        let model = try ModelSource.loadModel(path: path, enforcesForeignKeys: StoreArguments(arguments).enforcesForeignKeys)
        // Another program's tables that are not in the inferred model, and why.
        for (table, reason) in ModelSource.skippedTables(path: path) { console.err("vellum: note: table \(table) is left out: \(reason)\n") }
        if let other = arguments.option("diff") {
            console.out(ModelDiffText.describe(from: model, to: try ModelSource.loadModel(path: other)))
        } else if arguments.has("json") {
            var text = String(decoding: model.jsonData(), as: UTF8.self)
            if !text.hasSuffix("\n") { text += "\n" }
            console.out(text)
        } else {
            console.out(ModelFormatter.describe(model))
        }
    }
}

/// The human-readable rendering of a model used by `vellum model`.
enum ModelFormatter {
    static func describe(_ model: ManagedObjectModel) -> String {
        var out = ""
        let count = model.entityDescriptions.count
        out += "\(count) entit\(count == 1 ? "y" : "ies")\n"
        for e in model.entityDescriptions.sorted(by: { $0.name < $1.name }) {
            out += "\n"
            out += describe(e)
        }
        out += "\nversion hash: \(model.versionHash)\n"
        return out
    }

    static func describe(_ e: EntityDescription) -> String {
        var out = "entity \(e.name)\n"
        out += "  parent: \(e.parent ?? "none")\n"
        out += "  abstract: \(e.isAbstract ? "yes" : "no")\n"
        if let reason = e.userInfo[ForeignMappingKeys.readOnly] { out += "  read-only: \(reason)\n" }
        if e.attributes.isEmpty {
            out += "  attributes: none\n"
        } else {
            out += "  attributes:\n"
            let rows = e.attributes.flatMap { attributeRows($0) }
            out += table(rows, indent: "    ")
        }
        if e.relationships.isEmpty {
            out += "  relationships: none\n"
        } else {
            out += "  relationships:\n"
            out += table(e.relationships.map(relationshipRow), indent: "    ")
        }
        if !e.uniquenessConstraints.isEmpty {
            out += "  uniqueness constraints:\n"
            for c in e.uniquenessConstraints { out += "    (\(c.joined(separator: ", ")))\n" }
        }
        if !e.indexes.isEmpty {
            out += "  indexes:\n"
            for i in e.indexes { out += "    \(i.name): \(i.attributes.joined(separator: ", "))\n" }
        }
        return out
    }

    /// A composite's row is followed by its elements', named by their key paths.
    static func attributeRows(_ a: AttributeDescription, path: String = "") -> [[String]] {
        var row = attributeRow(a)
        row[0] = path.isEmpty ? a.name : "  \(path).\(a.name)"
        guard a.type == .composite else { return [row] }
        if let c = a.compositeName { row[2] += " (\(c))" }
        let here = path.isEmpty ? a.name : "\(path).\(a.name)"
        return [row] + a.elements.flatMap { attributeRows($0, path: here) }
    }

    static func attributeRow(_ a: AttributeDescription) -> [String] {
        var details: [String] = []
        details.append(a.isOptional ? "optional" : "required")
        if let d = a.defaultValue { details.append("default=\(literal(d))") }
        if let m = a.minValue { details.append("min=\(number(m))") }
        if let m = a.maxValue { details.append("max=\(number(m))") }
        if let r = a.regex { details.append("regex=/\(r)/") }
        if a.isTransient { details.append("transient") }
        if a.isIndexed { details.append("indexed") }
        return [a.name, a.type.rawValue, details.joined(separator: " ")]
    }

    static func relationshipRow(_ r: RelationshipDescription) -> [String] {
        var details: [String] = [r.isToMany ? "to-many" : "to-one"]
        if r.isOrdered { details.append("ordered") }
        details.append(r.isOptional ? "optional" : "required")
        details.append("inverse=\(r.inverse)")
        details.append("delete=\(r.deleteRule.rawValue)")
        if let m = r.minCount { details.append("min=\(m)") }
        if let m = r.maxCount { details.append("max=\(m)") }
        if r.isTransient { details.append("transient") }
        return [r.name, "-> \(r.destination)", details.joined(separator: " ")]
    }

    /// A value as it would be written: strings quoted (the one escaper, `ExportText.jsonString`),
    /// others as `Value.description`.
    static func literal(_ v: Value) -> String {
        if case .string(let s) = v { return ExportText.jsonString(s) }
        return v.description
    }

    /// Integral doubles without a fraction (min=1, not min=1.0).
    static func number(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// Left-aligned columns separated by two spaces; trailing blanks trimmed.
    static func table(_ rows: [[String]], indent: String) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for row in rows {
            var line = indent
            for (i, cell) in row.enumerated() {
                line += i == row.count - 1 ? cell : cell.padding(toLength: widths[i] + 2, withPad: " ", startingAt: 0)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
