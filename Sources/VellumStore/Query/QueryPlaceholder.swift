import Foundation
// Placeholder until the query language lands (branch `query`).
public indirect enum Predicate: Sendable, Hashable {
    case truePredicate
    public func evaluate(_ object: some KeyValueSource, variables: [String: Value] = [:]) throws -> Bool { true }
}
public struct SortDescriptor: Sendable, Hashable {
    public var keyPath: String
    public var ascending: Bool
    public init(_ keyPath: String, ascending: Bool = true) { self.keyPath = keyPath; self.ascending = ascending }
    public static func compare(_ a: some KeyValueSource, _ b: some KeyValueSource, descriptors: [SortDescriptor]) throws -> ComparisonResult {
        a.sourceObjectID < b.sourceObjectID ? .orderedAscending : (a.sourceObjectID == b.sourceObjectID ? .orderedSame : .orderedDescending)
    }
}
public struct CompiledQuery { public var whereClause: String; public var joins: String; public var orderBy: String; public var bindings: [Value] }
public enum QueryCompiler {
    public static func compile(entity: Entity, layout: NativeLayout, predicate: Predicate?, sortDescriptors: [SortDescriptor], variables: [String: Value] = [:]) throws -> CompiledQuery {
        CompiledQuery(whereClause: "1", joins: "", orderBy: "t0.\"_pk\"", bindings: [])
    }
}
