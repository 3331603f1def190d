import Foundation
import VellumStore

/// `vellum insert STORE ENTITY key=value…`: inserts one object in one save.
struct InsertCommand: AsyncCommand {
    static let name = "insert"
    static let summary = "Insert an object (key=value…) and print its ID"
    static let help = """
        Usage: vellum insert STORE ENTITY key=value...

        Inserts one ENTITY object with the given values in one save through the
        store's write queue, and prints the new object's ID URI. Values are parsed
        by attribute type, as in the browser: integers, decimals, true/false,
        ISO 8601 dates (2024-05-01, 2024-05-01T12:30, 2024-05-01 12:30:15.25,
        with Z or an offset such as +02:00; no zone = UTC; or now, today), UUIDs,
        URIs; 'key=' sets null (optional attributes only: a required attribute says
        it is required). A to-one relationship
        takes the target's ID URI (key=vellum://STORE-ID/Entity/p12).

        A bad value, an unknown key, or a validation or uniqueness violation prints
        which key and why, exits 1, and writes nothing.

        Options:
        \(StoreArguments.help)
          --help    show this help

        """
    static let spec = ArgumentSpec(flags: [StoreArguments.noForeignKeysFlag], options: ["model"])

    static func runAsync(_ arguments: ParsedArguments, console: Console) async throws {
        guard arguments.positionals.count >= 2 else {
            throw CLIError.usage("missing \(arguments.positionals.isEmpty ? "STORE" : "ENTITY")", command: name)
        }
        let container = try StoreSupport.openContainer(arguments.positionals[0], author: "vellum-cli", given: StoreArguments(arguments))
        let entity = try StoreSupport.entity(arguments.positionals[1], in: container.model)
        let assignments = try StoreSupport.assignments(Array(arguments.positionals.dropFirst(2)), entity: entity, store: container.store, command: name, console: console)
        let entityName = entity.name
        let temporaryID: ObjectID
        do {
            temporaryID = try await container.enqueue { context in
                let object = try context.insert(entityName)
                try StoreSupport.apply(assignments, to: object, in: context)
                return object.objectID
            }
        } catch { throw StoreSupport.writeFailure(error) }
        guard let id = container.store.permanentID(for: temporaryID) else {
            throw CLIError.runtime("saved, but the new object's ID is unknown")
        }
        console.out(id.uriString + "\n")
    }
}
