import Foundation
import VellumStore

/// `vellum update STORE ENTITY --where PREDICATE key=value…`: one save.
struct UpdateCommand: AsyncCommand {
    static let name = "update"
    static let summary = "Set values (key=value…) on the objects matching a predicate"
    static let help = """
        Usage: vellum update STORE ENTITY --where PREDICATE key=value...

        Sets the given values on every ENTITY object matching PREDICATE, in one
        save through the store's write queue, and prints how many objects changed.
        Values are parsed as for 'vellum insert' ('key=' sets null; a to-one
        relationship takes the target's ID URI). Use --where TRUEPREDICATE to
        change every object.

        A bad value, an unknown key, or a validation or uniqueness violation prints
        which key and why, exits 1, and writes nothing.

        When another writer changes the matching objects between the read and the
        save (a version conflict), the objects are read again and the values set
        again, up to \(ConflictRetry.defaultAttempts) times; then the conflict is reported, exit 1.

        Options:
          --where PREDICATE   which objects to change (required)
        \(StoreArguments.help)
          --help              show this help

        """
    static let spec = ArgumentSpec(flags: [StoreArguments.noForeignKeysFlag], options: ["model", "where"])

    static func runAsync(_ arguments: ParsedArguments, console: Console) async throws {
        guard arguments.positionals.count >= 2 else {
            throw CLIError.usage("missing \(arguments.positionals.isEmpty ? "STORE" : "ENTITY")", command: name)
        }
        guard let whereText = arguments.option("where") else {
            throw CLIError.usage("missing option '--where PREDICATE'", command: name)
        }
        if arguments.positionals.count == 2 { throw CLIError.usage("missing key=value", command: name) }
        let container = try StoreSupport.openContainer(arguments.positionals[0], author: "vellum-cli", given: StoreArguments(arguments))
        let entity = try StoreSupport.entity(arguments.positionals[1], in: container.model)
        let predicate = try StoreSupport.predicate(whereText, entity: entity, model: container.model, command: name)
        let assignments = try StoreSupport.assignments(Array(arguments.positionals.dropFirst(2)), entity: entity, store: container.store, command: name, console: console)
        let entityName = entity.name
        let changed: Int
        do {
            // Declarative: after a version conflict the objects are read again and the same values set.
            changed = try await ConflictRetry.run {
                try await container.enqueue { context in
                    let objects = try context.fetch(FetchRequest(entityName: entityName, predicate: predicate))
                    for o in objects { try StoreSupport.apply(assignments, to: o, in: context) }
                    return objects.filter(\.hasChanges).count
                }
            }
        } catch { throw StoreSupport.writeFailure(error) }
        console.out("updated \(changed) object\(changed == 1 ? "" : "s")\n")
    }
}
