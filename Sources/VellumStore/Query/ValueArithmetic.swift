import Foundation

/// `+ - * /` on predicate values, exactly as SQLite computes them, so that a
/// predicate gives the same answer in memory and in SQL:
///
/// * nil (or a non-number) on either side gives nil;
/// * integers stay integers for `+ - *`; on overflow the result is the same
///   operation on doubles (SQLite's rule);
/// * `/` always divides as doubles (`3 / 2` is 1.5), and `x / 0` is nil;
/// * a NaN result (`inf - inf`) is nil, as SQLite stores no NaN;
/// * booleans count as 0 and 1, decimals as doubles.
enum ValueArithmetic {
    static func apply(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> Value {
        guard let x = ValueOrdering.number(a), let y = ValueOrdering.number(b), !isDate(a), !isDate(b) else { return .null }
        if op != .divide, case .int(let i) = x, case .int(let j) = y {
            let (result, overflow): (Int64, Bool)
            switch op {
            case .add: (result, overflow) = i.addingReportingOverflow(j)
            case .subtract: (result, overflow) = i.subtractingReportingOverflow(j)
            default: (result, overflow) = i.multipliedReportingOverflow(by: j)
            }
            if !overflow { return .integer(result) }
        }
        let p = x.double, q = y.double
        let r: Double
        switch op {
        case .add: r = p + q
        case .subtract: r = p - q
        case .multiply: r = p * q
        case .divide:
            if q == 0 { return .null }
            r = p / q
        }
        return r.isNaN ? .null : .double(r)
    }

    /// Dates are not numbers here (validation refuses them; unvalidated, they give nil).
    private static func isDate(_ v: Value) -> Bool { if case .date = v { return true } else { return false } }
}
