import Foundation
import Testing

/// Issue #12, "one public error type": every public throwing declaration of
/// VellumStore is `throws(StoreError)`, or passes on errors of the caller's own
/// code (a closure, a `KeyValueSource`) and is listed below with why. Declarations
/// not yet converted from untyped `throws` are listed too, so the list can only
/// shrink: the test fails on a new one, and on a listed one that was converted
/// (remove it then). A new typed `throws(OtherError)` is never allowed.
@Suite struct PublicErrorTypeTests {
    /// "Folder/File.swift name": why it passes on other errors.
    static let passesOnCallersErrors: [String: String] = [
        "Context/BackgroundContext.swift perform": "the block's own errors",
        "Context/BackgroundContext.swift performAndWait": "the block's own errors",
        "Context/Context+Stream.swift forEachBatch": "the batch handler's own errors",
        "Context/PersistentContainer.swift enqueue": "the block's own errors",
        "Context/NonSendableResultOverloads.swift enqueue": "the block's own errors",
        "Context/NonSendableResultOverloads.swift perform": "the block's own errors",
        "Results/PersistentContainer+Observe.swift observe": "the transform's own errors",
        "Migration/MigrationStage.swift init": "the stage closures' own errors",
        "Context/MigrationStage+Context.swift withContext": "the stage closures' own errors",
        "SQLite/Connection.swift transaction": "the body's own errors",
        "Store/PersistentStore.swift withWriter": "the body's own errors",
        "Store/PersistentStore.swift writeTransaction": "the body's own errors",
        "Query/PredicateEvaluation.swift evaluate": "a KeyValueSource's own errors",
        "Query/QuerySortDescriptor.swift compare": "a KeyValueSource's own errors",
        "Query/QuerySortDescriptor.swift sort": "a KeyValueSource's own errors",
        "Context/Context+Fetch.swift attributeValue": "KeyValueSource requirement (untyped by protocol)",
        "Context/Context+Fetch.swift toOneValue": "KeyValueSource requirement (untyped by protocol)",
        "Context/Context+Fetch.swift toManyValue": "KeyValueSource requirement (untyped by protocol)",
    ]

    /// Untyped `throws` that throw only `StoreError` but do not say so in the type:
    /// the APIs whose errors users catch case by case (conflicts and validation at
    /// save, a denied delete, expired history). Typed, they make Swift 6.3 crash on an
    /// ordinary partial `catch StoreError.conflicts` (docs/errors.md;
    /// `TypedCatchCompilerCrashTests` fails once a toolchain compiles it, and then
    /// these should be typed). The set can only shrink.
    static let untypedUntilTheCompilerIsFixed: Set<String> = [
        "Context/Context+Merge.swift mergeChanges",
        "Context/Context+Merge.swift refreshAllFromStore",
        "Context/Context+Relationships.swift delete",
        "Context/Context+Restore.swift restore",
        "Context/Context+Save.swift save",
        "Context/ManagedObject.swift add",
        "Context/ManagedObject.swift committedValues",
        "Context/ManagedObject.swift dictionaryOfValues",
        "Context/ManagedObject.swift fireFault",
        "Context/ManagedObject.swift remove",
        "Context/ManagedObject.swift setToMany",
        "Context/ManagedObject.swift setToOne",
        "Context/ManagedObject.swift setValue",
        "Context/ManagedObject.swift setValues",
        "Context/ManagedObject.swift toMany",
        "Context/ManagedObject.swift toOne",
        "Context/ManagedObject.swift value",
        "Context/ManagedObjectContext.swift existingObject",
        "Context/ManagedObjectContext.swift init",
        "Context/ManagedObjectContext.swift insert",
        "Context/ManagedObjectContext.swift isUnique",
        "Context/ManagedObjectContext.swift object",
        "Context/ManagedObjectContext.swift refresh",
        "Context/ObjectSnapshot.swift snapshot",
        "Context/PersistentContainer.swift init",
        "Context/PersistentContainer.swift newBackgroundContext",
        "Context/TypedAccess.swift get",
        "Context/TypedAccess.swift set",
        "Context/TypedAccess.swift setTransformable",
        "Context/TypedAccess.swift transformable",
        "Context/UndoStack.swift redo",
        "Context/UndoStack.swift undo",
        "History/PersistentHistory.swift currentHistoryToken",
        "History/PersistentHistory.swift history",
        "History/PersistentHistory.swift pruneHistory",
        "Results/ResultsController.swift object",
        "Results/ResultsSection.swift objects",
        "Results/ResultsSnapshot.swift apply",
        "Results/ResultsSnapshot.swift applying",
        "Store/PersistentStore.swift metadata",
        "Context/ManagedObject.swift subscript",
    ]

    struct Declaration {
        var key: String
        var line: Int
        var clause: String
    }

    /// Public functions, initializers and subscripts (and `get throws` accessors)
    /// whose throws clause is not `throws(StoreError)` or `rethrows`.
    static func offenders() throws -> [Declaration] {
        var result: [Declaration] = []
        let root = LayeringTests.storeSources
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }.sorted()
        let declaration = try Regex(#"^\s*(@[\w()]+\s+)*public\b.*\b(func\s+([^\s(<]+)|init|subscript)\b"#)
        let throwsClause = try Regex(#"\b(rethrows|throws(\([^)]*\))?)"#)
        for path in files {
            let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (i, line) in lines.enumerated() {
                guard let d = line.firstMatch(of: declaration) else { continue }
                // The signature runs to the body's brace (at most a few lines).
                var signature = line, j = i
                while !signature.contains("{"), j + 1 < lines.count, j - i < 8 { j += 1; signature += " " + lines[j] }
                var head = String(signature.prefix { $0 != "{" })
                // A throwing getter: `subscript(…) -> T { get throws … }`.
                if !head.contains("throws"), j + 1 < lines.count, lines[j + 1].contains("get throws") { head += " " + lines[j + 1] }
                guard let t = head.firstMatch(of: throwsClause) else { continue }
                let clause = String(t.output[1].substring ?? "")
                if clause == "throws(StoreError)" || clause == "rethrows" { continue }
                let name = (d.output[3].substring ?? d.output[2].substring).map(String.init) ?? "?"
                result.append(Declaration(key: "\(path) \(name)", line: i + 1, clause: clause))
            }
        }
        return result
    }

    @Test func everyPublicThrowIsAStoreError() throws {
        let found = try Self.offenders()
        #expect(found.count > 10, "the scan found too little: \(found.count) under \(LayeringTests.storeSources.path)")
        for d in found where Self.passesOnCallersErrors[d.key] == nil {
            let path = d.key.split(separator: " ").first ?? ""
            if d.clause != "throws" {
                // `Support/` sits below `StoreError`: its throwing helpers (`LinearRegex`,
                // `SafeFileWriter`, `FileOutput`) are `package`, never public API.
                Issue.record("\(path):\(d.line): public API throws \(d.clause): make it throws(StoreError), nesting the error in a StoreError case")
            } else if !Self.untypedUntilTheCompilerIsFixed.contains(d.key) {
                Issue.record("\(path):\(d.line): public API with untyped throws: make it throws(StoreError)")
            }
        }
        let keys = Set(found.map(\.key))
        for key in Self.untypedUntilTheCompilerIsFixed.union(Self.passesOnCallersErrors.keys) where !keys.contains(key) {
            Issue.record("\(key) now throws StoreError (or is gone): remove it from PublicErrorTypeTests' lists")
        }
    }
}
