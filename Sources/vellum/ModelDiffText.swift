import Foundation
import VellumStore

/// `vellum model OLD --diff NEW`: the changes grouped by entity, in words.
enum ModelDiffText {
    static func describe(from old: ManagedObjectModel, to new: ManagedObjectModel) -> String {
        let changes = ModelDiff.changes(from: old, to: new)
        var out = "from \(old.versionHash.prefix(12)) to \(new.versionHash.prefix(12))\n"
        if changes.isEmpty { return out + "no differences\n" }
        var seen: [String] = []
        for c in changes where !seen.contains(c.entity) { seen.append(c.entity) }
        for entity in seen {
            out += "\n\(entity)\n"
            for c in changes where c.entity == entity { out += "  - \(c.detail)\n" }
        }
        return out
    }
}
