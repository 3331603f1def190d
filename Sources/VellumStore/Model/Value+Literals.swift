import Foundation

// Literals, so values read as what they hold: `["name": "Tea", "price": 3.5, "stock": 12, "sold": false]`,
// `object["note"] = nil`. Integers are `.integer`, floats `.double`; a model's attribute type
// still decides what is stored (`Value.coerced(to:)` widens integers to doubles and decimals).
extension Value: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Value: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension Value: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Value: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}
