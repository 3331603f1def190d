import Foundation

/// The versions of a model, oldest first, and what runs between each version and
/// the next: a lightweight (inferred) step, or the inferred step with custom stages
/// (`MigrationStage`), as a SwiftData migration plan lists its stages.
///
///     let schedule = MigrationSchedule(v1)
///         .lightweight(to: v2)
///         .custom(to: v3, .withContext("full names", after: { context in … }))
///     try StoreMigrator.migrate(storeAt: url, following: schedule)
///
/// A store holding version k runs only the steps after k, all in one transaction (a
/// failing step leaves the store at version k); the stages of a step run only when the
/// store passes through that step.
public struct MigrationSchedule: Sendable {
    /// One step, from `versions[i]` to `versions[i + 1]`.
    public struct Step: Sendable {
        public let model: ManagedObjectModel
        /// Empty for a lightweight step.
        public let stages: [MigrationStage]
    }

    public let first: ManagedObjectModel
    public private(set) var steps: [Step] = []

    public init(_ first: ManagedObjectModel) { self.first = first }

    /// Every version, oldest first.
    public var versions: [ManagedObjectModel] { [first] + steps.map(\.model) }

    /// The next version, reached by inference alone.
    public func lightweight(to model: ManagedObjectModel) -> MigrationSchedule {
        custom(to: model, [])
    }

    /// The next version, reached by inference with `stages` run in the same transaction
    /// (their `before` in the previous version's shape, their `after` in this one's).
    public func custom(to model: ManagedObjectModel, _ stages: MigrationStage...) -> MigrationSchedule {
        custom(to: model, stages)
    }

    public func custom(to model: ManagedObjectModel, _ stages: [MigrationStage]) -> MigrationSchedule {
        var copy = self
        copy.steps.append(Step(model: model, stages: stages))
        return copy
    }

    /// The steps a store holding `hash` runs: those after its version. Nil when it holds
    /// none of the versions.
    func steps(fromStoredHash hash: String) -> ArraySlice<Step>? {
        guard let at = versions.lastIndex(where: { $0.versionHash == hash }) else { return nil }
        return steps[at...]
    }
}

extension StoreMigrator {
    /// Migrates step by step along `schedule`, from the version the store holds to the
    /// last: each step is inferred from its predecessor (so renaming identifiers that name
    /// the previous version's elements chain across versions) and runs that step's stages
    /// and `options.stages`. All the steps are one transaction: if one fails, the store
    /// keeps the version it held. The backup (if any) is of the store before the first step.
    ///
    /// A store holding none of the versions migrates straight to the last when no step has
    /// custom stages; otherwise it is refused (which stages apply would be a guess).
    @discardableResult
    public static func migrate(storeAt url: URL, following schedule: MigrationSchedule,
                               options: MigrationOptions = MigrationOptions()) throws(StoreError) -> [MigrationResult] {
        let last = schedule.versions.last!
        // Chosen inside the transaction, from the model the store holds then.
        return try migrate(storeAt: url, options: options, stored: nil) { stored throws(StoreError) in
            if let known = schedule.steps(fromStoredHash: stored.versionHash) { return Array(known) }
            guard schedule.steps.allSatisfy(\.stages.isEmpty) else {
                throw .invalidOperation("\(url.path): the store holds model \(stored.versionHash.prefix(12)), which is none of the schedule's \(schedule.versions.count) versions; its custom stages belong to particular steps, so nothing was migrated")
            }
            return [MigrationSchedule.Step(model: last, stages: [])]
        }
    }
}
