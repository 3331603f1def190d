import CSQLite
import Foundation

/// A numeric column's values read in one unsorted scan and sorted in memory: what a
/// column summary needs from them (distinct values and their counts, ranks, sums,
/// deviations, bin counts) without SQL's sorter, which at a million rows spends more
/// than half a second on each `GROUP BY` or `ORDER BY` of the column.
///
/// Holds one word per non-null value (8 MB a million); `read` gives up (nil) past a
/// limit, and on any stored value that is not a number of the column's kind (another
/// program's text in a numeric column), so the caller can summarize in SQL instead.
struct SortedNumbers {
    /// How the values are kept: exactly as integers, or as doubles.
    enum Kind { case integers, doubles }

    let kind: Kind
    /// Order-preserving keys (`RadixSort.key`), ascending.
    private(set) var keys: [UInt64]
    /// Rows read whose value is NULL.
    let nulls: Int

    /// Values kept before the scan gives up (32 MB of keys).
    static let defaultLimit = 4 << 20

    /// Steps `statement` (one column) to its end and sorts what it read; nil when a
    /// value is not a number of `kind` or there are more than `limit` values.
    static func read(_ statement: Statement, kind: Kind, limit: Int = defaultLimit) throws(StoreError) -> SortedNumbers? {
        var keys: [UInt64] = []
        var nulls = 0
        while try statement.step() {
            switch statement.number(at: 0) {
            case .null: nulls += 1
            case .integer(let i): keys.append(kind == .integers ? RadixSort.key(i) : RadixSort.key(Double(i)))
            case .double(let d) where kind == .doubles: keys.append(RadixSort.key(d))
            default: return nil
            }
            if keys.count > limit { return nil }
        }
        RadixSort.sort(&keys)
        return SortedNumbers(kind: kind, keys: keys, nulls: nulls)
    }

    var count: Int { keys.count }

    /// The value at `rank` (0-based) as a number.
    func number(at rank: Int) -> Double {
        kind == .integers ? Double(RadixSort.integer(keys[rank])) : RadixSort.double(keys[rank])
    }

    /// The value at `rank` (0-based) as it was stored.
    func value(at rank: Int) -> Value {
        kind == .integers ? .integer(RadixSort.integer(keys[rank])) : .double(RadixSort.double(keys[rank]))
    }

    /// Each distinct value's first rank and how many values equal it, ascending. O(n).
    func forEachRun(_ body: (_ rank: Int, _ count: Int) -> Void) {
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count, keys[end] == keys[start] { end += 1 }
            body(start, end - start)
            start = end
        }
    }

    /// The sum: exact for integers whose sum fits 64 bits, otherwise compensated
    /// (Neumaier) in ascending order, so every engine's scan order gives the same figure.
    var sum: Double {
        if kind == .integers {
            var total: Int64 = 0
            var fits = true
            for k in keys {
                let (s, overflow) = total.addingReportingOverflow(RadixSort.integer(k))
                if overflow { fits = false; break }
                total = s
            }
            if fits { return Double(total) }
        }
        return Self.compensatedSum(count) { number(at: $0) }
    }

    /// Σ (x − mean)², compensated, ascending.
    func squaredDeviations(from mean: Double) -> Double {
        Self.compensatedSum(count) { let d = number(at: $0) - mean; return d * d }
    }

    /// How many values fall in each bin (the last includes its upper bound). O(n).
    func binCounts(_ bins: HistogramBins) -> [Int] {
        var counts = [Int](repeating: 0, count: bins.count)
        var bin = 0
        for rank in 0..<count {
            let x = number(at: rank)
            // Ascending values: the bin only moves forward.
            while bin < bins.count - 1, x >= bins.boundaries[bin + 1] { bin += 1 }
            counts[bin] += 1
        }
        return counts
    }

    /// Neumaier's compensated sum of `term(0..<n)`.
    private static func compensatedSum(_ n: Int, _ term: (Int) -> Double) -> Double {
        var sum = 0.0, compensation = 0.0
        for i in 0..<n {
            let x = term(i)
            let t = sum + x
            compensation += abs(sum) >= abs(x) ? (sum - t) + x : (x - t) + sum
            sum = t
        }
        return sum + compensation
    }
}

/// A column's value as a summary scan reads it: a number, NULL, or something else.
enum ScannedNumber {
    case null, integer(Int64), double(Double), other
}

extension Statement {
    /// Column `i` of the current row as a number, by its storage class (SQLite) or its
    /// decoded value (a server's cursor).
    func number(at i: Int) -> ScannedNumber {
        guard handle != nil else {
            switch value(at: i) {
            case .null: return .null
            case .integer(let n): return .integer(n)
            case .double(let d): return .double(d)
            case .bool(let b): return .integer(b ? 1 : 0)
            default: return .other
            }
        }
        // One read of the column (each `sqlite3_column_*` call re-validates the statement).
        guard let v = sqlite3_column_value(handle, Int32(i)) else { return .null }
        switch sqlite3_value_type(v) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(v))
        case SQLITE_FLOAT: return .double(sqlite3_value_double(v))
        default: return .other
        }
    }
}
