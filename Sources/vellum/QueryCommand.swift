import Foundation
import VellumStore
import VellumTerminal

/// `vellum query STORE ENTITY [--where P] [--sort K,-K2] [--limit N] [--offset N] [--format table|csv|json]`.
struct QueryCommand: Command {
    static let name = "query"
    static let summary = "Print the objects of an entity matching a predicate"
    static let help = """
        Usage: vellum query STORE ENTITY [--where PREDICATE] [--sort KEY,-KEY2]
                                         [--limit N] [--offset N] [--format table|csv|json]
                                         [--max-width N | --full] [--output FILE [--force]]
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
          --max-width N       table cells longer than N columns end in '…' (default 40)
          --full              table cells show whole values
          --output FILE       write to FILE instead of standard output: never over
                              the store or another database, never partially
          --force             with --output: replace an existing (non-database) FILE
          --read-only         open the store read-only (automatic when the file or
                              its folder is not writable; said on stderr)
        \(StoreArguments.help)
          --help              show this help

        Rows are printed as they are read (memory stays flat for any number of
        rows). Table columns are aligned on the first 1000 rows; control
        characters in table cells are shown as \\e, \\t, \\n, \\r or \\u{XX}. CSV and
        JSON carry every value exactly.

        A predicate with a syntax error is shown with a caret under the error
        position (exit 2); an unknown entity or key is a runtime error (exit 1).

        """
    static let spec = ArgumentSpec(flags: [StoreArguments.noForeignKeysFlag, "full", "force", ReadOnlyNotice.flag], options: ["model", "where", "sort", "limit", "offset", "format", "max-width", "output"])

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
        let store = try StoreSupport.openStore(p[0], readOnly: arguments.has(ReadOnlyNotice.flag), console: console, given: StoreArguments(arguments))
        let entity = try StoreSupport.entity(p[1], in: store.model)
        let predicate = try StoreSupport.predicate(arguments.option("where"), entity: entity, model: store.model, command: name)
        var sort: [VellumStore.QuerySortDescriptor] = []
        if let text = arguments.option("sort") {
            do { sort = try VellumStore.QuerySortDescriptor.parseList(text) } catch {
                throw CLIError.usage("invalid --sort:\n" + (error.parseError?.caretDiagnostic(input: text, width: DisplayWidth.of) ?? error.description), command: name)
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
        let columns = entity.attributes.filter { !$0.isTransient }.map(\.name)
        let toOnes = entity.relationships.filter { !$0.isToMany && !$0.isTransient }.map(\.name)
        var printer = QueryPrinter(format: format, header: ["_id"] + columns + toOnes, maxWidth: try maxWidth(arguments))
        // Rows flow out as they are read, a batch at a time; the context forgets each batch.
        func emitRows(_ emit: (String) throws -> Void) throws {
            try context.forEachBatch(request, batchSize: 1000) { objects in
                var rows: [QueryPrinter.Row] = []
                rows.reserveCapacity(objects.count)
                for o in objects {
                    var cells: [Value] = []
                    for c in columns { cells.append(try o.value(forKey: c)) }
                    var links: [String?] = []
                    for r in toOnes { links.append(try o.toOne(r)?.objectID.uriString) }
                    rows.append(QueryPrinter.Row(id: o.objectID.uriString, values: cells, links: links))
                }
                try emit(printer.text(for: rows))
            }
            try emit(printer.ending())
        }
        guard let output = arguments.option("output") else { return try emitRows { console.out($0) } }
        do {
            try SafeFileWriter(protecting: [store.path]).write(to: output, replacing: arguments.has("force")) { file in
                try emitRows { try file.write($0) }
            }
        } catch FileWriteError.exists(let path) {
            throw CLIError.runtime("\(path) already exists; refusing to replace it (--force replaces it)")
        } catch let error as FileWriteError {
            throw CLIError.runtime(error.description)
        }
        console.err("wrote \(printer.count) object\(printer.count == 1 ? "" : "s") to \(output)\n")
    }

    /// `--max-width N` (default 40) caps table cells; `--full` shows whole values.
    static func maxWidth(_ arguments: ParsedArguments) throws -> Int? {
        if arguments.has("full") { return nil }
        guard let n = try count(arguments, "max-width") else { return 40 }
        guard n >= 2 else { throw CLIError.usage("--max-width needs at least 2", command: name) }
        return n
    }

    static func count(_ arguments: ParsedArguments, _ option: String) throws -> Int? {
        guard let text = arguments.option(option) else { return nil }
        guard let n = Int(text), n >= 0 else {
            throw CLIError.usage("--\(option) needs a non-negative integer, got '\(text)'", command: name)
        }
        return n
    }
}
