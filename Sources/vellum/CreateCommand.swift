import Foundation
import VellumStore

/// `vellum create STORE --model PATH`: creates an empty store. Never overwrites.
struct CreateCommand: Command {
    static let name = "create"
    static let summary = "Create an empty store from a model"
    static let help = """
        Usage: vellum create STORE --model PATH

        Creates a new, empty Vellum store at STORE with the model read from PATH
        (a JSON model, an Xcode model, or an existing store). STORE must not exist:
        an existing file is never overwritten. The store is built in a temporary
        file beside STORE and put in place only when complete: an interrupted
        create leaves nothing at STORE, and of two creates of one path only one
        succeeds.

        Options:
          --model PATH   the model to use (required)
          --help         show this help

        """
    static let spec = ArgumentSpec(options: ["model"])

    static var createOnly: StoreOptions {
        var options = StoreOptions(createIfMissing: true)
        options.createOnly = true
        return options
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let storePath = try VellumCLI.positionals(arguments, ["STORE"], command: name)[0]
        guard let modelPath = arguments.option("model") else {
            throw CLIError.usage("missing option '--model PATH'", command: name)
        }
        let model = try ModelSource.loadModel(path: modelPath)
        let store: PersistentStore
        do {
            store = PersistentStore.isServerLocation(storePath)
                ? try PersistentStore(postgreSQL: PostgreSQLURL(storePath), model: model, options: Self.createOnly)
                : try PersistentStore(url: URL(fileURLWithPath: storePath), model: model, options: Self.createOnly)
        } catch {
            throw CLIError.runtime(VellumCLI.describe(error))
        }
        let n = model.entityNames.count
        console.out("created \(store.path): \(n) entit\(n == 1 ? "y" : "ies"), model hash \(model.versionHash.prefix(12)), store \(store.identifier)\n")
    }
}
