import Foundation
import VellumStore

/// `vellum query STORE ENTITY [--where P] [--sort K,-K2] [--limit N] [--offset N] [--format table|csv|json]`.
struct QueryCommand: Command {
    static let name = "query"
    static let summary = "Print the objects of an entity matching a predicate"
    static let help = """
        Usage: vellum query STORE ENTITY [--where PREDICATE] [--sort KEY,-KEY2]
                                         [--limit N] [--offset N] [--format table|csv|json]
                                         [--read-only]

        Prints the objects of ENTITY (and its sub-entities) in STORE that match
        PREDICATE, one per row: the object's ID URI (_id), its attributes, and
        its to-one relationships as the target's ID URI.

        Options:
          --where PREDICATE   e.g. "price > 10 AND name BEGINSWITH[c] 'a'"
          --sort KEYS         comma-separated keys, '-' for descending: name,-price
          --limit N           at most N objects
          --offset N          skip the first N objects
          --format FORMAT     table (default, aligned columns), csv (RFC 4180),
                              json (an array of objects; dates ISO 8601, binary base64)
          --read-only         open the store read-only (automatic when the file or
                              its folder is not writable; said on stderr)
          --help              show this help

        A predicate with a syntax error is shown with a caret under the error
        position (exit 2); an unknown entity or key is a runtime error (exit 1).

        """
    static let spec = ArgumentSpec(flags: [ReadOnlyNotice.flag], options: ["where", "sort", "limit", "offset", "format"])

    enum Format: String { case table, csv, json }

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let p = try VellumCLI.positionals(arguments, ["STORE", "ENTITY"], command: name)
        let format: Format
        if let f = arguments.option("format") {
            guard let parsed = Format(rawValue: f) else {
                throw CLIError.usage("unknown format '\(f)' (expected table, csv or json)", command: name)
            }
            format = parsed
        } else {
            format = .table
        }
        let limit = try count(arguments, "limit")
        let offset = try count(arguments, "offset") ?? 0
        let store = try StoreSupport.openStore(p[0], readOnly: arguments.has(ReadOnlyNotice.flag), console: console)
        let entity = try StoreSupport.entity(p[1], in: store.model)
        let predicate = try StoreSupport.predicate(arguments.option("where"), entity: entity, model: store.model, command: name)
        var sort: [VellumStore.SortDescriptor] = []
        if let text = arguments.option("sort") {
            do { sort = try VellumStore.SortDescriptor.parseList(text) } catch {
                throw CLIError.usage("invalid --sort:\n" + error.caretDiagnostic(input: text), command: name)
            }
            for s in sort {
                do { try s.validate(entity: entity, model: store.model) } catch {
                    throw CLIError.runtime("invalid --sort for \(entity.name): \(error.description)")
                }
            }
        }
        let context: ManagedObjectContext
        do { context = try ManagedObjectContext(store: store) } catch { throw CLIError.runtime(VellumCLI.describe(error)) }
        let request = FetchRequest(entityName: entity.name, predicate: predicate, sortDescriptors: sort,
                                   fetchLimit: limit, fetchOffset: offset)
        let objects = try context.fetch(request)
        let columns = entity.attributes.filter { !$0.isTransient }.map(\.name)
        let toOnes = entity.relationships.filter { !$0.isToMany && !$0.isTransient }.map(\.name)
        var rows: [Row] = []
        for o in objects {
            var cells: [Value] = []
            for c in columns { cells.append(try o.value(forKey: c)) }
            var links: [String?] = []
            for r in toOnes { links.append(try o.toOne(r)?.objectID.uriString) }
            rows.append(Row(id: o.objectID.uriString, values: cells, links: links))
        }
        let header = ["_id"] + columns + toOnes
        switch format {
        case .table: console.out(table(header: header, rows: rows))
        case .csv: console.out(csv(header: header, rows: rows))
        case .json: console.out(json(keys: header, rows: rows))
        }
    }

    struct Row {
        var id: String
        var values: [Value]
        var links: [String?]
    }

    static func count(_ arguments: ParsedArguments, _ option: String) throws -> Int? {
        guard let text = arguments.option(option) else { return nil }
        guard let n = Int(text), n >= 0 else {
            throw CLIError.usage("--\(option) needs a non-negative integer, got '\(text)'", command: name)
        }
        return n
    }

    // MARK: - Formats

    static func table(header: [String], rows: [Row]) -> String {
        let body = rows.map { r in [r.id] + r.values.map(\.description) + r.links.map { $0 ?? "nil" } }
        var out = ModelFormatter.table([header] + body, indent: "")
        out += "(\(rows.count) object\(rows.count == 1 ? "" : "s"))\n"
        return out
    }

    /// Text for CSV cells: null empty, dates ISO 8601, binary base64.
    static func plain(_ v: Value) -> String { ExportText.plain(v) }

    static func csv(header: [String], rows: [Row]) -> String {
        func field(_ s: String) -> String { ExportText.csvField(s) }
        var out = header.map(field).joined(separator: ",") + "\r\n"
        for r in rows {
            let cells = [r.id] + r.values.map(plain) + r.links.map { $0 ?? "" }
            out += cells.map(field).joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func json(keys: [String], rows: [Row]) -> String {
        if rows.isEmpty { return "[]\n" }
        var lines: [String] = []
        for r in rows {
            var members = ["\(JSONText.string(keys[0])):\(JSONText.string(r.id))"]
            for (i, v) in r.values.enumerated() { members.append("\(JSONText.string(keys[1 + i])):\(JSONText.value(v))") }
            for (i, link) in r.links.enumerated() {
                members.append("\(JSONText.string(keys[1 + r.values.count + i])):\(link.map(JSONText.string) ?? "null")")
            }
            lines.append("  {" + members.joined(separator: ",") + "}")
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }
}

/// Minimal JSON text writing for values (no Foundation encoder: key order and number forms stay exact).
enum JSONText {
    static func string(_ s: String) -> String { ExportText.jsonString(s) }

    static func value(_ v: Value) -> String { ExportText.jsonValue(v) }

    /// `{"k":v,...}` in the given order.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
