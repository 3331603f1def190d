import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue #12: one rule core decides whether a value fits an attribute. Seeded
/// random attributes and values (edge cases first: bounds, NaN and infinities,
/// empty and huge strings, newlines at the ends, lone surrogates, invalid UTF-8,
/// dates around 1970 and 2001) go through every path — the core, `save()`, the
/// field editor's parse of the value's own text, and for a sample the real
/// `vellum insert` — and every path must give the core's verdict. Replay a
/// failure with `VELLUM_SEED=<seed>`.
@Suite("one verdict for a value on every path", .serialized)
struct ValueVerdictPropertyTests {
    static let attributeCount = 48
    static let valuesPerAttribute = 24
    static let cliSample = 40

    @Test func everyPathGivesTheCoresVerdict() throws {
        let seed = ProcessInfo.processInfo.environment["VELLUM_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max / 2)
        var rng = SplitMix64(seed: seed)
        let attributes = (0..<Self.attributeCount).map { _ in RandomValues.attribute(using: &rng) }
        let model = try ModelBuilder.oneEntityPerAttribute(attributes)
        let dir = TempDir()
        let path = dir.path("verdicts.vellum")
        var cliCases: [(entity: String, attribute: AttributeDescription, value: Value, text: String)] = []
        do {
            let store = try PersistentStore(url: URL(fileURLWithPath: path), model: model)
            let context = try ManagedObjectContext(store: store)
            for (i, attribute) in attributes.enumerated() {
                for _ in 0..<Self.valuesPerAttribute {
                    let value = RandomValues.value(for: attribute, using: &rng)
                    let say = "seed \(seed): E\(i).\(attribute.name) \(attribute.type.rawValue) optional=\(attribute.isOptional) min=\(String(describing: attribute.minValue)) max=\(String(describing: attribute.maxValue)) regex=\(attribute.regex ?? "-") value \(String(reflecting: value))"
                    let core = ValueRules.violation(of: value, for: attribute)
                    let coerces = (try? value.coerced(to: attribute.type)) != nil

                    // save(): a refusal either when set (type) or when saved (rules), with the core's reason.
                    let saved = Self.saveRefusal(value, "E\(i)", attribute, context)
                    #expect((saved == nil) == (core == nil), "\(say): core \(core ?? "accepts"), save \(saved ?? "accepts")")
                    if coerces, let core, let saved { #expect(saved == core, "\(say)") }

                    // The field editor, given the text it would show for the value.
                    guard FieldText.isEditable(attribute.type), Self.editorCanShow(value, attribute) else { continue }
                    let text = FieldText.editText(value, type: attribute.type)
                    // Empty text is the editor's "no value": its verdict is the core's for nil.
                    let noValue = Self.textIsNoValue(text, attribute.type)
                    let expected = noValue ? ValueRules.violation(of: .null, for: attribute) : core
                    switch FieldText.parse(text, for: attribute) {
                    case .success(let read):
                        #expect(ValueRules.violation(of: read, for: attribute) == nil, "\(say): the editor accepted \(String(reflecting: read))")
                        #expect(expected == nil, "\(say): core \(expected ?? ""), the editor accepts '\(text)'")
                    case .failure(let e):
                        #expect(expected != nil, "\(say): the editor refuses '\(text)': \(e.reason)")
                        if coerces || noValue, let expected { #expect(e.reason.contains(expected), "\(say): editor '\(e.reason)', core '\(expected)'") }
                    }
                    if attribute.type != .binary && attribute.type != .transformable && !noValue
                        && cliCases.count < Self.cliSample && rng.next() % 8 == 0 {
                        cliCases.append(("E\(i)", attribute, value, text))
                    }
                }
            }
        }
        // `vellum insert` through the real binary, for a sample of the cases.
        for c in cliCases {
            let r = try VellumBinary.run(["insert", path, c.entity, "\(c.attribute.name)=\(c.text)"])
            let core = ValueRules.violation(of: c.value, for: c.attribute)
            #expect((r.status == 0) == (core == nil), "seed \(seed): \(c.entity) \(String(reflecting: c.value)): core \(core ?? "accepts"), vellum: \(r.stderr)")
            if let core, (try? c.value.coerced(to: c.attribute.type)) != nil {
                #expect(r.stderr.hasSuffix(core + "\n"), "seed \(seed): \(String(reflecting: c.value)): \(r.stderr)")
            }
        }
    }

    /// Nil when one object with `value` saved, else why not (the context is rolled back).
    static func saveRefusal(_ value: Value, _ entity: String, _ attribute: AttributeDescription, _ context: ManagedObjectContext) -> String? {
        defer { context.rollback() }
        do {
            try context.insert(entity).setValue(value, forKey: attribute.name)
            _ = try context.save()
            return nil
        } catch let StoreError.validation(failure) {
            return failure.reason
        } catch {
            return ErrorText.describe(error)
        }
    }

    /// Text the editor reads as no value: empty, or for types other than string only white space.
    static func textIsNoValue(_ text: String, _ type: AttributeType) -> Bool {
        type == .string ? text.isEmpty : text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// Whether the editor's text for `value` stands for it: data for a
    /// transformable is not shown as JSON text.
    static func editorCanShow(_ value: Value, _ attribute: AttributeDescription) -> Bool {
        if attribute.type == .transformable, case .data = value { return false }
        return true
    }
}

extension ModelBuilder {
    /// Entities E0, E1, … each with one of `attributes` as its only attribute.
    static func oneEntityPerAttribute(_ attributes: [AttributeDescription]) throws -> ManagedObjectModel {
        var builder = ModelBuilder()
        for (i, a) in attributes.enumerated() {
            builder = builder.entity("E\(i)") {
                $0.attribute(a.name, a.type, optional: a.isOptional, min: a.minValue, max: a.maxValue, regex: a.regex)
            }
        }
        return try builder.build()
    }
}
