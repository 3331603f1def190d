import Foundation

extension Connection {
    /// Runs `body`, which creates TEMP objects, also on a read-only connection: such a
    /// connection is `query_only`, which refuses TEMP objects too, so it is lifted meanwhile.
    func allowingTemporaryObjects(_ body: () throws(StoreError) -> Void) throws(StoreError) {
        let queryOnly = try scalarInt("PRAGMA query_only") == 1
        if queryOnly { try run("PRAGMA query_only = 0") }
        defer { if queryOnly { try? run("PRAGMA query_only = 1") } }
        try body()
    }
}
