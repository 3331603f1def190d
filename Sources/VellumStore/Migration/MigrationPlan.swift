import Foundation

/// What a migration will do, decided before it runs: per entity the changes, how
/// its table is changed, how many rows are affected and the checks run against the
/// stored data. A plan with refusals (a failing check or a change that cannot be
/// inferred) does not run.
public struct MigrationPlan: Sendable, CustomStringConvertible {
    /// How a table reaches its new shape.
    public enum Strategy: String, Sendable {
        /// Nothing changes in the table.
        case unchanged
        /// In place: `ALTER TABLE … ADD COLUMN`, index changes.
        case alter = "ALTER"
        /// A new table filled from the old one, which is then dropped (same transaction).
        case rebuild = "rebuild"
    }

    /// A condition the stored rows must meet; `failingRows` rows do not.
    public struct Check: Sendable, Hashable {
        public var what: String
        public var failingRows: Int
        /// A few primary keys of failing rows.
        public var examples: [Int64]
        public var passed: Bool { failingRows == 0 }
    }

    public struct EntityStep: Sendable {
        public var entity: String
        public var changes: [String]
        public var strategy: Strategy
        /// Rows of this entity (exactly this entity, not its subentities) in the store;
        /// nil when not counted: a table changed in place (`ALTER`) with no check that
        /// needs them is not read (counting a large table costs more than the change).
        public var rows: Int?
        public var checks: [Check]
        /// Changes the inferred path cannot make, with the reason.
        public var refusals: [String]
    }

    public let path: String
    public let fromHash: String
    public let toHash: String
    public var steps: [EntityStep]
    /// Strategy per table of the new model (root tables and join tables).
    public var tables: [String: Strategy]

    /// Why the plan cannot run (empty: it can).
    public var blockers: [String] {
        steps.flatMap { s in
            s.refusals.map { "\(s.entity): \($0)" }
                + s.checks.filter { !$0.passed }.map { "\(s.entity): \($0.what): \($0.failingRows == 1 ? "1 row does" : "\($0.failingRows) rows do") not comply\(examplesText($0))" }
        }
    }

    public var canRun: Bool { blockers.isEmpty }

    /// True when old and new model need no change to the file but the stored model.
    public var changesNothing: Bool { steps.allSatisfy { $0.changes.isEmpty } }

    public var description: String {
        var out = "Migration of \(path)\n  from model \(fromHash.prefix(12)) to \(toHash.prefix(12))\n"
        for s in steps where !s.changes.isEmpty || !s.checks.isEmpty || !s.refusals.isEmpty {
            let rows = s.rows.map { "\($0) row\($0 == 1 ? "" : "s")" } ?? "rows not counted"
            out += "\n\(s.entity) (\(rows), \(s.strategy.rawValue))\n"
            for c in s.changes { out += "  - \(c)\n" }
            for c in s.checks {
                out += "  check \(c.what): " + (c.passed ? "ok\n" : "\(c.failingRows) failing\(examplesText(c))\n")
            }
            for r in s.refusals { out += "  refused: \(r)\n" }
        }
        let joins = tables.filter { t in !steps.contains { $0.entity == t.key } && t.value != .unchanged }
        for (t, s) in joins.sorted(by: { $0.key < $1.key }) { out += "\njoin table \(t): \(s.rawValue)\n" }
        out += canRun ? "\nThe plan can run.\n" : "\nThe plan cannot run:\n" + blockers.map { "  \($0)\n" }.joined()
        return out
    }

    private func examplesText(_ c: Check) -> String {
        c.examples.isEmpty ? "" : " (keys \(c.examples.map(String.init).joined(separator: ", "))\(c.failingRows > c.examples.count ? ", …" : ""))"
    }
}
