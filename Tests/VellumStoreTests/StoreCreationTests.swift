import Foundation
import Testing
import VellumStore

/// Issue 11, "Creating stores", in the library: a store file appears only complete.
@Suite struct StoreCreationTests {
    @Test func concurrentOpenOrCreateAgreesOnOneStore() throws {
        let dir = TempDir()
        let url = dir.file("s.vellum")
        let model = try Fixtures.shopModel()
        let lock = NSLock()
        nonisolated(unsafe) var identifiers: [String] = []
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let store = try PersistentStore(url: url, model: model)
                lock.withLock { identifiers.append(store.identifier) }
            } catch {
                lock.withLock { failures.append("\(error)") }
            }
        }
        #expect(failures == [])
        #expect(Set(identifiers).count == 1 && identifiers.count == 6)
    }
}
