import CSQLite
import Foundation

extension Connection {
    /// Registers SQL functions of these names, any number of arguments, that return NULL:
    /// another program's triggers call its own functions (Core Data's `NSCoreData…` in
    /// derived-attribute triggers), and a write through them fails without one.
    public func registerNoOpFunctions(_ names: [String]) {
        for name in names {
            sqlite3_create_function_v2(handle, name, -1, SQLITE_UTF8, nil, { ctx, _, _ in
                sqlite3_result_null(ctx)
            }, nil, nil, nil)
        }
    }
}
