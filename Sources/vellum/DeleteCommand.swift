import Foundation
import VellumStore

/// `vellum delete STORE ENTITY --where PREDICATE`: one save.
struct DeleteCommand: AsyncCommand {
    static let name = "delete"
    static let summary = "Delete the objects matching a predicate"
    static let help = """
        Usage: vellum delete STORE ENTITY --where PREDICATE

        Deletes every ENTITY object matching PREDICATE, in one save through the
        store's write queue (delete rules apply: nullify, cascade, deny), and
        prints how many objects were deleted. Use --where TRUEPREDICATE to delete
        every object. A deny rule that still has related objects names the
        relationship, exits 1, and deletes nothing.

        Options:
          --where PREDICATE   which objects to delete (required)
        \(StoreArguments.help)
          --help              show this help

        """
    static let spec = ArgumentSpec(flags: [StoreArguments.noForeignKeysFlag], options: ["model", "where"])

    static func runAsync(_ arguments: ParsedArguments, console: Console) async throws {
        let p = try VellumCLI.positionals(arguments, ["STORE", "ENTITY"], command: name)
        guard let whereText = arguments.option("where") else {
            throw CLIError.usage("missing option '--where PREDICATE'", command: name)
        }
        let container = try StoreSupport.openContainer(p[0], author: "vellum-cli", given: StoreArguments(arguments))
        let entity = try StoreSupport.entity(p[1], in: container.model)
        let predicate = try StoreSupport.predicate(whereText, entity: entity, model: container.model, command: name)
        let entityName = entity.name
        let deleted: Int
        do {
            deleted = try await container.enqueue { context in
                let objects = try context.fetch(FetchRequest(entityName: entityName, predicate: predicate))
                for o in objects { try context.delete(o) }
                return objects.count
            }
        } catch { throw StoreSupport.writeFailure(error) }
        console.out("deleted \(deleted) object\(deleted == 1 ? "" : "s")\n")
    }
}
