import Foundation
import VellumStore

// Pattern 3 of docs/guide.md section 9: inserts that check uniqueness first, and a results
// controller on the view context that follows the write queue's saves live. It opens (or
// creates) shop.sqlite in the current directory; run it twice: the second run finds the first
// run's providers (adding none of them again) and the list grows by one shop per run.

/// The list's rows, read through the controller's (view) context.
@MainActor
func names(in list: ResultsController) throws -> [String] {
    try list.fetchedObjectIDs.map { try list.context.existingObject(with: $0)["name"].stringValue ?? "" }
}

/// The first change set `changes` delivers, or nil after `seconds`: a live list that never
/// reports must fail the program, not hang it.
func firstChange(of changes: AsyncStream<ResultsChangeSet>, within seconds: Int) async -> ResultsChangeSet? {
    await withTaskGroup(of: ResultsChangeSet?.self) { group in
        group.addTask { await changes.first { _ in true } }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ShopList: \(message)\n".utf8))
    exit(1)
}

let container = try PersistentContainer(model: try shopModel(), storeURL: URL(fileURLWithPath: "shop.sqlite"))
print("Opened shop.sqlite")
for name in ["Acme Tea", "Bolt Coffee"] {
    let added = try await addUniqueProvider(name, to: container)
    print(added ? "Added \(name)" : "\(name) is already there, not added again")
}

let list = try providerList(in: container)
let shown = try names(in: list)
print("List (\(shown.count)): \(shown.joined(separator: ", "))")

// Subscribe before writing, so the change set cannot be missed.
let changes = list.changes()
// One new shop per run (named by the count, so unique): the write always changes the list.
let newShop = "Corner Shop \(shown.count - 1)"
guard try await addUniqueProvider(newShop, to: container) else { fail("\(newShop) already exists") }
print("Saved \(newShop) on the write queue")

// The view context merges the save on the main queue and the controller reports it there;
// awaiting here lets the main queue run.
let timeout = 10
guard let change = await firstChange(of: changes, within: timeout) else {
    fail("the list did not report \(newShop) within \(timeout) seconds")
}
let updated = try names(in: list)
guard updated.contains(newShop) else { fail("the list changed but does not show \(newShop): \(updated)") }
let rows = change.objectInserts.map { "row \($0.indexPath.item)" }.joined(separator: ", ")
print("The list reported the change: \(change.objectInserts.count) insert(s) (\(rows))")
print("List (\(updated.count)): \(updated.joined(separator: ", "))")
