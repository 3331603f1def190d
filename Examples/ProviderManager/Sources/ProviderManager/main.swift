import Foundation
import VellumStore

// Pattern 2 of docs/guide.md section 9: a ProviderManager whose every write is one block on the
// container's write queue, and whose reads return plain values. It opens (or creates)
// providers.sqlite in the current directory; run it twice: the second run finds the providers
// the first added and adds none.
let manager = ProviderManager(container: try PersistentContainer(model: try shopModel(),
                                                                 storeURL: URL(fileURLWithPath: "providers.sqlite")))
let before = try await manager.names()
print("Opened providers.sqlite: \(before.count) provider(s) already there")

// Add only the missing ones, so a second run adds nothing. The adds run concurrently (the
// manager is Sendable); the write queue still applies them one block at a time.
let missing = ["Acme Tea", "Bolt Coffee", "Cocoa Corner"].filter { !before.contains($0) }
try await withThrowingTaskGroup(of: Void.self) { group in
    for name in missing { group.addTask { try await manager.add(name) } }
    try await group.waitForAll()
}
print("Added \(missing.count): \(missing.isEmpty ? "none" : missing.joined(separator: ", "))")

// A duplicate is not a silent no-op: the unique constraint refuses it at save, and the
// block's error comes back to the caller.
do {
    try await manager.add("Acme Tea")
    print("Error: a duplicate \"Acme Tea\" was saved")
    exit(1)
} catch let error as StoreError {
    print("Adding \"Acme Tea\" again is refused: \(error)")
}

let names = try await manager.names()
print("Providers (\(names.count)): \(names.joined(separator: ", "))")
