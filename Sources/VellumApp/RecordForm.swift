import VellumStore

/// `a` on an entity whose records need values the store cannot supply (a required
/// attribute without a default, a required relationship), or `A` on any entity: every field
/// of the new record in one form, validated as typed, saved only when complete.
/// A value of the state: the reducer edits it, the renderer draws it, and the
/// runner writes it once, as one insert.
public struct RecordForm: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case attribute(AttributeDescription)
            /// A to-one, chosen with the picker: its destination entity.
            case toOne(destination: String)
            /// A required to-many, its members chosen with the membership picker: the
            /// destination and how many members the record needs at least.
            case toMany(destination: String, minimum: Int)
        }
        public var name: String
        public var kind: Kind
        public var isRequired: Bool
        /// The typed text (attributes), the chosen record's name (to-ones, "" = none) or
        /// the chosen members' names (to-manys).
        public var text: String
        /// The chosen record of a to-one.
        public var target: ObjectID?
        /// The chosen members of a to-many, in the order listed.
        public var targets: [ObjectID] = []
        /// What the form opened with (the default), to tell whether anything was typed.
        public let initialText: String
        /// Why the text cannot be stored as it is (nil: it can), checked at every key.
        public var problem: String?

        public init(attribute: AttributeDescription, text: String) {
            name = attribute.name
            kind = .attribute(attribute)
            isRequired = !attribute.isOptional
            self.text = text
            initialText = text
        }

        public init(toOne r: RelationshipDescription) {
            name = r.name
            kind = .toOne(destination: r.destination)
            isRequired = !r.isOptional || (r.minCount ?? 0) > 0
            text = ""
            initialText = ""
        }

        /// A required to-many: the members it needs (`minCount`, at least one).
        public init(toMany r: RelationshipDescription) {
            name = r.name
            kind = .toMany(destination: r.destination, minimum: max(1, r.minCount ?? 1))
            isRequired = true
            text = ""
            initialText = ""
        }

        public var attribute: AttributeDescription? {
            if case .attribute(let a) = kind { return a }
            return nil
        }

        public var isToOne: Bool {
            if case .toOne = kind { return true }
            return false
        }

        /// A relationship: chosen in a picker, not typed.
        public var isPicked: Bool { attribute == nil }

        /// Required and not given: blank text, a to-one with no record chosen, a to-many
        /// with fewer members than it needs.
        public var isMissing: Bool {
            guard isRequired else { return false }
            switch kind {
            case .attribute: return text.isEmpty
            case .toOne: return target == nil
            case .toMany(_, let minimum): return targets.count < minimum
            }
        }

        /// How to type the value, under the fields while it is the current one.
        public var typeHint: String {
            switch kind {
            case .attribute: break
            case .toOne(let destination): return "a \(destination)" + (isRequired ? ", required" : ", or none")
            case .toMany(let destination, let minimum):
                return "\(destination) records, at least \(minimum) (Enter lists them; Tab chooses)"
            }
            guard let a = attribute else { return "" }
            var s = a.type.rawValue
            switch (a.minValue, a.maxValue) {
            case let (lo?, hi?): s += " from \(Self.number(lo)) to \(Self.number(hi))"
            case let (lo?, nil): s += " ≥ \(Self.number(lo))"
            case let (nil, hi?): s += " ≤ \(Self.number(hi))"
            default: break
            }
            if a.type == .boolean { s += " (true/false; Space toggles)" }
            if a.type == .date { s += " (2026-12-03, 2026-12-03 14:30, ISO-8601)" }
            s += isRequired ? ", required" : ", empty = none"
            return FieldText.hint(for: a) ?? s
        }

        private static func number(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }

        /// Checks the text as the field editor would save it.
        mutating func validate() {
            guard let attribute else {
                guard isMissing else { problem = nil; return }
                if case .toMany(_, let minimum) = kind {
                    problem = minimum == 1 ? "required: choose one or more" : "required: choose at least \(minimum)"
                } else {
                    problem = "required: pick one"
                }
                return
            }
            if isMissing { problem = "required"; return }
            if case .failure(let error) = FieldText.parse(text, for: attribute) { problem = error.reason } else { problem = nil }
        }
    }

    public var entity: String
    public var fields: [Field]
    /// The field being typed into.
    public var cursor = 0
    /// Why the last save was refused (a uniqueness conflict, a store error): shown until the next key.
    public var refusal: String?
    /// A save is under way: keys still edit, but another save waits for its outcome.
    public var isSaving = false
    /// Esc with typed values asked "discard?"; the next key answers.
    public var confirmingDiscard = false

    public init(entity: String, fields: [Field]) {
        self.entity = entity
        self.fields = fields
        for i in self.fields.indices { self.fields[i].validate() }
    }

    /// Whether anything differs from what the form opened with.
    public var isChanged: Bool { fields.contains { $0.text != $0.initialText || $0.target != nil } }

    /// The fields that stop a save, in order.
    public var problems: [Field] { fields.filter { $0.problem != nil } }

    public var isComplete: Bool { problems.isEmpty }

    public var current: Field? { fields.indices.contains(cursor) ? fields[cursor] : nil }

    /// The line editor over the current field: a default not yet changed is a
    /// suggestion (typing replaces it, a move keeps it).
    var editor: LineEditor {
        guard let field = current else { return LineEditor() }
        return field.text == field.initialText && !field.text.isEmpty ? LineEditor(suggesting: field.text) : LineEditor(field.text)
    }

    /// Puts `text` in the current field and checks it.
    mutating func setText(_ text: String) {
        guard fields.indices.contains(cursor) else { return }
        fields[cursor].text = text
        fields[cursor].validate()
        refusal = nil
    }

    /// The current to-one is now `target` (nil: none), shown by `name`.
    mutating func choose(_ target: ObjectID?, name: String) {
        guard fields.indices.contains(cursor), fields[cursor].isToOne else { return }
        fields[cursor].target = target
        fields[cursor].text = target == nil ? "" : name
        fields[cursor].validate()
        refusal = nil
    }

    /// The current to-many's members are now `targets` (in the order listed), named by `names`.
    mutating func chooseMembers(_ targets: [ObjectID], names: [String]) {
        guard fields.indices.contains(cursor), case .toMany = fields[cursor].kind else { return }
        fields[cursor].targets = targets
        fields[cursor].text = targets.isEmpty ? "" : "\(targets.count) chosen: " + names.joined(separator: ", ")
        fields[cursor].validate()
        refusal = nil
    }

    /// Moves by `step` fields, wrapping around.
    mutating func move(_ step: Int) {
        guard !fields.isEmpty else { return }
        cursor = ((cursor + step) % fields.count + fields.count) % fields.count
    }

    /// The form's last line: what still stops the save, or that it can be saved.
    public var footer: String {
        let p = problems
        if p.isEmpty { return "complete" }
        let missing = p.filter(\.isMissing).count
        var parts: [String] = []
        if missing > 0 { parts.append("\(missing) required field\(missing == 1 ? "" : "s") to fill") }
        if p.count > missing { parts.append("\(p.count - missing) to correct") }
        return parts.joined(separator: ", ")
    }
}
