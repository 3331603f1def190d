import Foundation

/// Why a value does not fit an attribute's type.
public struct ValueTypeMismatch: Error, Sendable, Hashable {
    public var expected: AttributeType
    public var got: String
    public var detail: String?
}

extension Value {
    /// Converts the value to the canonical form for `type`, accepting lossless
    /// widenings (integer → double/decimal, 0/1 → boolean). `.null` passes through.
    /// A value that does not fit is `StoreError.valueType`.
    public func coerced(to type: AttributeType) throws(StoreError) -> Value {
        do { return try converted(to: type) } catch { throw .valueType(error) }
    }

    func converted(to type: AttributeType) throws(ValueTypeMismatch) -> Value {
        func mismatch(_ detail: String? = nil) -> ValueTypeMismatch {
            ValueTypeMismatch(expected: type, got: kindName, detail: detail)
        }
        if case .null = self { return .null }
        switch (type, self) {
        case (.undefined, _): return self
        case (.string, .string): return self
        case (.integer16, .integer(let i)), (.integer32, .integer(let i)), (.integer64, .integer(let i)):
            let range = type.integerRange!
            guard range.contains(i) else { throw mismatch("\(i) is out of range \(range.lowerBound)...\(range.upperBound) for \(type.rawValue)") }
            return self
        case (.integer16, .bool(let b)), (.integer32, .bool(let b)), (.integer64, .bool(let b)):
            return .integer(b ? 1 : 0)
        case (.double, .double(let d)), (.float, .double(let d)):
            // SQLite would store NaN as NULL; no path takes a value it cannot keep.
            guard d.isFinite else { throw mismatch("\(d) is not a finite number") }
            return self
        case (.double, .integer(let i)), (.float, .integer(let i)): return .double(Double(i))
        case (.decimal, .decimal): return self
        case (.decimal, .integer(let i)): return .decimal(Decimal(i))
        case (.decimal, .double(let d)):
            guard d.isFinite else { throw mismatch("\(d) is not a finite number") }
            return .decimal(Decimal(string: "\(d)") ?? Decimal(d))
        case (.boolean, .bool): return self
        case (.boolean, .integer(let i)) where i == 0 || i == 1: return .bool(i == 1)
        case (.date, .date): return self
        case (.binary, .data): return self
        case (.uuid, .uuid): return self
        case (.uri, .uri): return self
        case (.transformable, .string(let s)) where s.trimmingCharacters(in: .whitespacesAndNewlines) == "null":
            return .null   // JSON null is no value, not the text 'null'
        case (.transformable, .string(let s)):
            if let error = JSONSyntax.firstError(in: s) { throw mismatch("not valid JSON at \(error)") }
            return self
        case (.transformable, .data(let d)):
            guard let s = String(validating: d, as: UTF8.self) else { throw mismatch("not valid JSON: not UTF-8 text") }
            return try Value.string(s).converted(to: type)
        default:
            throw mismatch()
        }
    }
}

extension ValueTypeMismatch: CustomStringConvertible {
    public var description: String {
        if let detail { return detail }
        return "expected \(expected.rawValue), got \(got)"
    }
}
