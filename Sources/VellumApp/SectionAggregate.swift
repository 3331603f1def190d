import Foundation
import VellumStore

/// `:group KEY sum(price)`: the figure each section header shows beside its count,
/// computed in SQL per group (`ManagedObjectContext.aggregate`).
public struct SectionAggregate: Sendable, Equatable {
    public var function: GroupAggregateFunction
    /// The attribute measured (nil: `count`, rows with any value).
    public var attribute: String?

    /// How the header names it: `sum(price)`.
    public var label: String { "\(function.rawValue)(\(attribute ?? ""))" }

    /// Reads `sum(price)`, `avg(price)`, `min(due)`, `count()`; nil with the reason when it is not one.
    public static func parse(_ text: String) -> Result<SectionAggregate, GroupUsage> {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let open = t.firstIndex(of: "("), t.hasSuffix(")"),
              let function = GroupAggregateFunction(rawValue: t[..<open].lowercased()) else {
            return .failure(GroupUsage("'\(t)' is not an aggregate: use \(GroupAggregateFunction.allCases.map { "\($0.rawValue)(KEY)" }.joined(separator: ", "))"))
        }
        let attribute = t[t.index(after: open)..<t.index(before: t.endIndex)].trimmingCharacters(in: .whitespaces)
        guard !attribute.isEmpty || function == .count else { return .failure(GroupUsage("\(function.rawValue) needs a key: \(function.rawValue)(price)")) }
        return .success(SectionAggregate(function: function, attribute: attribute.isEmpty ? nil : attribute))
    }

    /// A figure as the header shows it: numbers with at most two decimals, dates as the table shows them.
    @MainActor static func text(_ v: Value) -> String {
        switch v {
        case .double(let d) where d.isFinite:
            let rounded = (d * 100).rounded() / 100
            return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(format: "%.2f", rounded)
        case .null: return "∅"
        default: return Renderer.tableText(v)
        }
    }
}

public struct GroupUsage: Error, Sendable, Equatable {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}
