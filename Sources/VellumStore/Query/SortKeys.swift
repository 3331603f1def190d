/// The sort-key values of one results-index entry.
///
/// Most lists sort by one key, so one value is held inline and only two or
/// more take an array: indexing a million rows then allocates nothing per row
/// (and copying an entry counts no references for number keys).
struct SortKeys: Equatable, RandomAccessCollection {
    private enum Storage: Equatable {
        case none
        case one(Value)
        case many([Value])
    }
    private let storage: Storage

    init() { storage = .none }
    init(_ value: Value) { storage = .one(value) }
    init(_ values: [Value]) {
        switch values.count {
        case 0: storage = .none
        case 1: storage = .one(values[0])
        default: storage = .many(values)
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .none: return 0
        case .one: return 1
        case .many(let values): return values.count
        }
    }

    subscript(i: Int) -> Value {
        switch storage {
        case .none: preconditionFailure("no sort keys")
        case .one(let v): precondition(i == 0, "sort key \(i) of 1"); return v
        case .many(let values): return values[i]
        }
    }
}
