import Foundation
import VellumStore

/// `vellum model` for a Core Data store: the recovered model with its source and how far
/// the store's version hashes confirm it; `--json` writes Vellum's JSON model, `--xcdatamodel
/// DIR` an Xcode model. The store is read without changing it.
enum CoreDataModelOutput {
    static let options: Set<String> = ["model", "xcdatamodel"]

    /// Handles `path` when it is a Core Data store; false for anything else (the options
    /// are refused there).
    static func run(path: String, _ arguments: ParsedArguments, console: Console) throws -> Bool {
        guard CoreDataStoreFile.isCoreDataStore(path: path) else {
            if let option = options.sorted().first(where: { arguments.option($0) != nil }) {
                throw CLIError.usage("--\(option) applies to Core Data stores only; \(path) is not one", command: ModelCommand.name)
            }
            return false
        }
        let recovered: RecoveredCoreDataModel
        do {
            recovered = try CoreDataStoreFile(path: path).recoverModel(xcodeModel: arguments.option("model").map { URL(fileURLWithPath: $0) })
        } catch {
            throw CLIError.runtime(VellumCLI.describe(error))
        }
        if let folder = arguments.option("xcdatamodel") {
            do { try XcodeModelWriter.write(recovered.coreData, toFolder: folder) } catch {
                throw CLIError.runtime("\(folder): cannot write the Xcode model: \(VellumCLI.describe(error))")
            }
        }
        if arguments.has("json") {
            var text = String(decoding: recovered.model.jsonData(), as: UTF8.self)
            if !text.hasSuffix("\n") { text += "\n" }
            console.out(text)
        } else {
            console.out(describe(recovered))
        }
        return true
    }

    static func describe(_ r: RecoveredCoreDataModel) -> String {
        var out = "Core Data store; model source: \(r.source)\n"
        if case .inferred(let notes) = r.source {
            for note in notes { out += "  \(note)\n" }
        }
        let count = r.metadata.versionHashes.count
        out += r.differingEntities.isEmpty
            ? "version hashes: equal to the store's (\(count) entit\(count == 1 ? "y" : "ies"))\n"
            : "version hashes: differ from the store's for \(r.differingEntities.joined(separator: ", "))\n"
        return out + "\n" + ModelFormatter.describe(r.model)
    }
}
