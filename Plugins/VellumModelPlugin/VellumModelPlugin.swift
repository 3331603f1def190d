import Foundation
import PackagePlugin

/// Generates typed entity types from a target's model files at build time, as
/// Xcode's automatic code generation does: every `.xcdatamodeld`, `.xcdatamodel`
/// and `*.vellum.json` model in the target becomes NAME.swift in the build folder,
/// compiled with the target and never committed. Declare the models as resources
/// (or exclude them) so SwiftPM does not warn about unhandled files.
@main
struct VellumModelPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "vellum-generate")
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedEntities")
        return target.sourceFiles.map(\.url).filter(Self.isModel).map { model in
            let name = Self.outputName(model)
            return .buildCommand(
                displayName: "Generating entities from \(model.lastPathComponent)",
                executable: tool.url,
                arguments: [model.path, output.path],
                inputFiles: [model],
                outputFiles: [output.appending(path: name)])
        }
    }

    static func isModel(_ url: URL) -> Bool {
        let name = url.lastPathComponent.lowercased()
        return name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") || name.hasSuffix(".vellum.json")
    }

    /// The same name `SwiftEntityGenerator.outputFileName(forModelAt:)` gives (the plugin cannot link the library).
    static func outputName(_ url: URL) -> String {
        var name = url.lastPathComponent
        let extensions = [".xcdatamodeld", ".xcdatamodel", ".json", ".xml", ".vellum"]
        while let e = extensions.first(where: { name.lowercased().hasSuffix($0) && name.count > $0.count }) {
            name = String(name.dropLast(e.count))
        }
        return name + ".swift"
    }
}
