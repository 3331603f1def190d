import Foundation
import Testing
@testable import VellumStore

/// Random pairs of models related by random inferable changes, random data: the
/// migrated store must hold exactly what a reference computed in memory says.
/// A failure prints its seed; `VELLUM_SEED=<seed>` replays it.
@Suite struct MigrationRandomizedTests {
    /// One attribute of the random entity `R`, and where its values come from in the old model.
    struct Attr {
        var name: String
        var type: AttributeType
        var optional = true
        var defaultValue: Value?
        var renamedFrom: String?
        /// The old attribute this one continues (nil: new).
        var source: String?
    }

    /// The random model: `R` (attributes, a to-many `items`), `T` (a to-one `owner` to R,
    /// maybe renamed or made to-many); either entity may be renamed, `items` made ordered
    /// or given another delete rule, and indexes added.
    struct Shape {
        var attrs: [Attr]
        var rName = "R", rRenamedFrom: String?
        var tName = "T", tRenamedFrom: String?
        var ownerName = "owner"
        var ownerRenamedFrom: String?
        var ownerToMany = false
        var itemsOrdered = false
        var itemsRule = DeleteRule.nullify
        var indexed: [String] = []

        func model() throws -> ManagedObjectModel {
            try ModelBuilder()
                .entity(rName, renamedFrom: rRenamedFrom) { e in
                    for a in attrs { e.attribute(a.name, a.type, optional: a.optional, default: a.defaultValue, renamedFrom: a.renamedFrom) }
                    e.toMany("items", tName, inverse: ownerName, ordered: itemsOrdered, deleteRule: itemsRule)
                    for name in indexed where attrs.contains(where: { $0.name == name }) { e.index("by_\(name)", name) }
                }
                .entity(tName, renamedFrom: tRenamedFrom) { e in
                    e.attribute("label", .string)
                    if ownerToMany { e.toMany(ownerName, rName, inverse: "items", renamedFrom: ownerRenamedFrom) } else { e.toOne(ownerName, rName, inverse: "items", renamedFrom: ownerRenamedFrom) }
                }
                .build()
        }
    }

    static let types: [AttributeType] = [.string, .integer16, .integer32, .integer64, .double, .boolean]

    static func randomValue(_ type: AttributeType, _ rng: inout SeededRandom) -> Value {
        if Int.random(in: 0..<5, using: &rng) == 0 { return .null }
        switch type {
        case .string: return .string(["a", "b", "Zoë", "", "x y"][Int.random(in: 0..<5, using: &rng)])
        case .integer16, .integer32, .integer64: return .integer(Int64.random(in: -300...300, using: &rng))
        case .double: return .double(Double(Int.random(in: -1000...1000, using: &rng)) / 8)
        case .boolean: return .bool(Bool.random(using: &rng))
        default: return .null
        }
    }

    /// What the reference says a widened value becomes.
    static func widened(_ v: Value, to type: AttributeType) -> Value {
        switch (v, type) {
        case (.null, _): return .null
        case (.integer(let i), .double): return .double(Double(i))
        case (.integer(let i), .string): return .string(String(i))
        case (.bool(let b), .string): return .string(b ? "true" : "false")
        case (.bool(let b), .integer64): return .integer(b ? 1 : 0)
        default: return v
        }
    }

    /// Narrowings every random value fits (integers are within ±300).
    static let narrowings: [AttributeType: [AttributeType]] = [.integer64: [.integer32, .integer16], .integer32: [.integer16]]

    static let widenings: [AttributeType: [AttributeType]] = [
        .integer16: [.integer32, .integer64, .double, .string], .integer32: [.integer64, .double, .string],
        .integer64: [.string], .boolean: [.integer64, .string],
    ]

    /// One random inferable change of `shape`.
    static func change(_ shape: inout Shape, _ rng: inout SeededRandom, _ n: inout Int) {
        n += 1
        let i = shape.attrs.isEmpty ? 0 : Int.random(in: 0..<shape.attrs.count, using: &rng)
        switch Int.random(in: 0..<12, using: &rng) {
        case 0:
            let type = types.randomElement(using: &rng)!
            let withDefault = Bool.random(using: &rng)
            var d = randomValue(type, &rng)
            if d == .null { d = type == .string ? .string("d") : type == .boolean ? .bool(true) : type == .double ? .double(1.5) : .integer(9) }
            shape.attrs.append(Attr(name: "n\(n)", type: type, optional: !withDefault, defaultValue: withDefault ? d : nil))
        case 1 where !shape.attrs.isEmpty:
            shape.attrs.remove(at: i)
        case 2 where !shape.attrs.isEmpty:
            shape.attrs[i].renamedFrom = shape.attrs[i].renamedFrom ?? shape.attrs[i].name
            shape.attrs[i].name = "r\(n)"
        case 3 where !shape.attrs.isEmpty:
            if let to = widenings[shape.attrs[i].type]?.randomElement(using: &rng) {
                shape.attrs[i].type = to
                shape.attrs[i].defaultValue = shape.attrs[i].defaultValue.map { widened($0, to: to) }
            }
        case 4 where !shape.attrs.isEmpty:
            shape.attrs[i].optional = false
            shape.attrs[i].defaultValue = Self.defaultFor(shape.attrs[i].type)
        case 5:
            shape.ownerRenamedFrom = shape.ownerRenamedFrom ?? shape.ownerName
            shape.ownerName = "o\(n)"
        case 6:
            shape.ownerToMany = true
        case 7 where !shape.attrs.isEmpty:
            if let to = narrowings[shape.attrs[i].type]?.randomElement(using: &rng) {
                shape.attrs[i].type = to
            }
        case 8:
            if Bool.random(using: &rng) {
                shape.rRenamedFrom = shape.rRenamedFrom ?? shape.rName
                shape.rName = "R\(n)"
            } else {
                shape.tRenamedFrom = shape.tRenamedFrom ?? shape.tName
                shape.tName = "T\(n)"
            }
        case 9:
            shape.itemsOrdered.toggle()
        case 10:
            shape.itemsRule = [DeleteRule.cascade, .deny, .nullify].randomElement(using: &rng)!
        default:
            if !shape.attrs.isEmpty, !shape.indexed.contains(shape.attrs[i].name) { shape.indexed.append(shape.attrs[i].name) }
        }
    }

    static func defaultFor(_ type: AttributeType) -> Value {
        switch type {
        case .string: return .string("dflt")
        case .double: return .double(0.25)
        case .boolean: return .bool(false)
        default: return .integer(3)
        }
    }

    @Test func randomInferableChangesMatchTheReference() throws {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        for round in 0..<24 {
            var shape = Shape(attrs: (0..<Int.random(in: 1...4, using: &rng)).map { Attr(name: "a\($0)", type: Self.types.randomElement(using: &rng)!) })
            let oldModel = try shape.model()
            let rows = Int.random(in: 0...30, using: &rng)
            let store = try MigrationTestStore(oldModel) { ctx in
                var owners: [ManagedObject] = []
                for _ in 0..<rows {
                    var values: [String: Value] = [:]
                    for a in shape.attrs { values[a.name] = Self.randomValue(a.type, &rng) }
                    owners.append(try ctx.insert("R", values: values))
                }
                for k in 0..<rows {
                    let item = try ctx.insert("T", values: ["label": .string("t\(k)")])
                    if !owners.isEmpty, Bool.random(using: &rng) { try item.setToOne("owner", owners.randomElement(using: &rng)!) }
                }
            }
            let before = try store.rows("R", model: oldModel)
            let items = try store.rows("T", model: oldModel)
            // Every attribute starts as its own source; changes keep `source` through renames and widenings.
            for j in shape.attrs.indices { shape.attrs[j].source = shape.attrs[j].name }
            var n = 0
            for _ in 0..<Int.random(in: 1...3, using: &rng) { Self.change(&shape, &rng, &n) }
            for j in shape.attrs.indices where shape.attrs[j].renamedFrom != nil && shape.attrs[j].source == nil { shape.attrs[j].renamedFrom = nil }
            let newModel = try shape.model()
            try store.migrate(to: newModel)
            let after = try store.rows(shape.rName, model: newModel)
            #expect(Set(after.keys) == Set(before.keys), "seed \(seed) round \(round)")
            for (key, old) in before {
                var expected: [String: Value] = [:]
                for a in shape.attrs {
                    var v = a.source.flatMap { old[$0] }.map { Self.widened($0, to: a.type) } ?? a.defaultValue ?? .null
                    if v == .null, !a.optional { v = a.defaultValue ?? .null }
                    expected[a.name] = v
                }
                // The items it owned before, in any order (an ordered to-many starts in an order of its own).
                let owned = items.filter { $0.value["owner"]?.integerValue == key }.map(\.key).sorted()
                let members = after[key]?["items"].flatMap { v -> [Int64]? in
                    guard case .string(let list) = v else { return nil }
                    return list.split(separator: ",").compactMap { Int64($0) }.sorted()
                }
                #expect(members == owned, "seed \(seed) round \(round) key \(key): items \(String(describing: members)), owned before \(owned)")
                expected["items"] = after[key]?["items"]
                #expect(after[key] == expected, "seed \(seed) round \(round) key \(key) shape \(shape.attrs.map { "\($0.name):\($0.type.rawValue)" })")
            }
            let newItems = try store.rows(shape.tName, model: newModel)
            for (key, item) in items {
                let owner = item["owner"]!
                let expected: Value = shape.ownerToMany ? .string(owner.integerValue.map(String.init) ?? "") : owner
                #expect(newItems[key]?[shape.ownerName] == expected, "seed \(seed) round \(round) item \(key) owner \(shape.ownerName) many \(shape.ownerToMany) from \(shape.ownerRenamedFrom ?? "-")")
            }
        }
    }
}
