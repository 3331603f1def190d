import Foundation

/// An object managed by one context. Not `Sendable`: it lives on its context's
/// queue. Pass its `objectID` to other contexts instead.
///
/// Values are read and written by key with type checking; relationship setters
/// keep the inverse side in step. A fetched object may be a fault: its values
/// load on first access.
public final class ManagedObject: Hashable, CustomStringConvertible {
    public let entity: Entity
    @exclusivity(unchecked) public internal(set) var objectID: ObjectID
    // The flags are declared here, after the ID, because a class lays its fields out in
    // declaration order: they fill the ID's 7 bytes of padding instead of a word of their own
    // (a 100k-object fetch or insert holds 100k objects).
    @exclusivity(unchecked) public internal(set) var isFault: Bool
    @exclusivity(unchecked) public internal(set) var isInserted = false
    @exclusivity(unchecked) public internal(set) var isDeleted = false
    @exclusivity(unchecked) private var hasPendingKey = false
    /// The values are a compact row (see `CompactRow`), not `Value`s.
    @usableFromInline @exclusivity(unchecked) var rowIsCompact = false
    /// Where the row starts in `rowStorage`, in bytes. 16 bits fill the rest of the ID's
    /// padding where a pointer would take a word: storages are at most 64 KB but for a
    /// single row, which starts at 0 (fetched objects are 112 bytes of memory, not 128).
    @usableFromInline @exclusivity(unchecked) var rowOffset: UInt16 = 0
    /// The owning context; nil once the context is gone (or has let go of the object).
    public var context: ManagedObjectContext? { contextHandle?.context }
    /// Shared by all objects of a context: a strong reference to it costs one
    /// retain per object, where a weak reference to the context costs three
    /// runtime calls (~5% of a 100k fetch).
    @exclusivity(unchecked) private var contextHandle: ContextHandle?

    // Hot fields skip the runtime exclusivity check (it cost ~15% of a fetch): an
    // object is confined to its context's queue, and no access to one of them
    // spans a call that could touch the same field again, so the check never fires.

    /// Current attribute values, aligned with `entity.attributes` (empty while a
    /// fault). Reading the whole array copies a row; hot paths use `storedValue(at:)`
    /// and `setStoredValue(_:at:)`.
    var values: [Value] {
        get {
            guard let base = rowStorage?.base else { return [] }
            let row = base + Int(rowOffset)
            if rowIsCompact { return CompactRow.values(of: row, width: entity.attributes.count) }
            return Array(UnsafeBufferPointer(start: row.assumingMemoryBound(to: Value.self), count: entity.attributes.count))
        }
        set {
            precondition(newValue.isEmpty || newValue.count == entity.attributes.count,
                         "\(newValue.count) values for \(entity.name)'s \(entity.attributes.count) attributes")
            if let rowStorage, !rowIsCompact, !newValue.isEmpty {
                let values = (rowStorage.base + Int(rowOffset)).assumingMemoryBound(to: Value.self)
                for i in newValue.indices { values[i] = newValue[i] }
                return
            }
            if newValue.isEmpty {
                useRow(nil, at: 0, compact: false)
            } else {
                useRow(ValueRow(newValue), at: 0, compact: false)
            }
        }
    }
    /// The memory holding the object's row: a `RowBlock` or `CompactRowBlock` shared
    /// with other objects of a fetch or bulk insert, or a `ValueRow` of its own (nil
    /// while a fault). The row is this object's alone; blocks only share the allocation.
    @usableFromInline @exclusivity(unchecked) var rowStorage: RowStorage?

    private func useRow(_ storage: RowStorage?, at offset: Int, compact: Bool) {
        rowStorage = storage
        rowOffset = UInt16(offset)
        rowIsCompact = compact
    }

    /// Writes one stored value in place; `index` must be a valid attribute index. A
    /// compact row is first decoded into a row of the object's own.
    func setStoredValue(_ value: consuming Value, at index: Int) {
        precondition(index >= 0 && index < entity.attributes.count, "attribute index \(index) out of range")
        guard let base = rowStorage?.base else { preconditionFailure("\(objectID.uriString) has no values to change") }
        if rowIsCompact {
            let own = ValueRow(CompactRow.values(of: base + Int(rowOffset), width: entity.attributes.count))
            useRow(own, at: 0, compact: false)
            own.values[index] = value
            return
        }
        (base + Int(rowOffset)).assumingMemoryBound(to: Value.self)[index] = value
    }

    /// Points the object at its row in a block of values (see `RowBlock`).
    func useSharedRow(_ row: UnsafeMutablePointer<Value>, in block: RowBlock) {
        useRow(block, at: UnsafeRawPointer(row) - UnsafeRawPointer(block.base), compact: false)
    }

    /// Points the object at its compact row in a block (see `CompactRowBlock`).
    func useCompactRow(_ row: UnsafeMutableRawPointer, in block: CompactRowBlock) {
        useRow(block, at: row - block.base, compact: true)
    }

    /// One stored value without copying the row; `index` must be a valid attribute index.
    @inlinable
    func storedValue(at index: Int) -> Value {
        precondition(index >= 0 && index < entity.attributes.count, "attribute index \(index) out of range")
        // Only the address is taken from the storage (self keeps it alive): binding the
        // reference itself would retain and release it on every read.
        guard let base = rowStorage?.base else { preconditionFailure("\(objectID.uriString) has no values (a fault)") }
        let row = base + Int(rowOffset)
        if rowIsCompact { return CompactRow.value(at: index, of: row, width: entity.attributes.count) }
        return row.assumingMemoryBound(to: Value.self)[index]
    }
    /// The row version read from the store (0 for inserted objects).
    @exclusivity(unchecked) var version: Int64 = 0
    /// What only some objects have (see `ObjectExtras`); nil until one is set.
    @exclusivity(unchecked) private var extras: ObjectExtras?

    private func ensureExtras() -> ObjectExtras {
        if let extras { return extras }
        let made = ObjectExtras()
        extras = made
        return made
    }

    /// The values as last read from or written to the store, kept from the first
    /// change until save or rollback (nil = unchanged since loaded).
    var committed: [Value]? {
        get { extras?.committed }
        set { if newValue != nil || extras != nil { ensureExtras().committed = newValue } }
    }
    /// Loaded relationships, aligned with `entity.relationships` (nil = not loaded yet).
    var relations: [Relation?] {
        get { extras?.relations ?? [] }
        set { if !newValue.isEmpty || extras != nil { ensureExtras().relations = newValue } }
        _modify { yield &ensureExtras().relations }
    }
    /// Loaded as part of a batched fetch: firing one fault loads its neighbours.
    var batch: FaultBatch? {
        get { extras?.batch }
        set { if newValue != nil || extras != nil { ensureExtras().batch = newValue } }
    }
    /// The counter of its temporary key (unsaved inserts), for lookup by ID.
    @exclusivity(unchecked) var temporaryCounter: UInt64 = 0
    /// The primary key a save in progress gave it (applied only after commit).
    var pendingKey: Int64? {
        get { hasPendingKey ? pendingKeyValue : nil }
        set {
            hasPendingKey = newValue != nil
            pendingKeyValue = newValue ?? 0
        }
    }
    /// `pendingKey` without an optional's ninth byte (its flag is with the others).
    @exclusivity(unchecked) private var pendingKeyValue: Int64 = 0


    init(entity: Entity, objectID: ObjectID, context: ManagedObjectContext, isFault: Bool) {
        self.entity = entity
        self.objectID = objectID
        self.contextHandle = context.handle
        self.isFault = isFault
    }

    /// Cuts the object off from its context (reset, replaced by another object for its ID).
    func detachFromContext() { contextHandle = nil }

    /// After its context's `reset()`: forgotten, as in Core Data. Its values are
    /// dropped and it is a fault without a context, so reading it throws.
    func invalidateForReset() {
        relations = []
        values = []
        isFault = true
        detachFromContext()
    }

    public static func == (a: ManagedObject, b: ManagedObject) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String {
        let name = entity.name
        if isFault { return "<\(name) \(objectID.uriString) fault>" }
        let fields = entity.attributes.indices.map { "\(entity.attributes[$0].name)=\(storedValue(at: $0))" }
        return "<\(name) \(objectID.uriString) \(fields.joined(separator: " "))>"
    }

    /// True if the object has unsaved changes (inserted, deleted, or changed values or relationships).
    public var hasChanges: Bool {
        isInserted || isDeleted || hasChangedValues
    }

    var hasChangedValues: Bool {
        if let committed, committed != values { return true }
        return relations.contains { $0?.isChanged == true }
    }

    // MARK: - Attribute access

    private func owningContext() throws -> ManagedObjectContext {
        guard let context else { throw StoreError.invalidOperation("\(objectID.uriString): its context was reset or no longer exists") }
        return context
    }

    func attributeIndex(_ key: String) throws -> Int {
        guard let i = entity.attributeIndexByName[key] else { throw StoreError.unknownKey(entity: entity.name, key: key) }
        return i
    }

    /// Loads the object's values if it is a fault.
    public func fireFault() throws {
        if isFault { try owningContext().fulfillFault(self) }
    }

    /// The value of an attribute by name (`.null` for nil).
    public subscript(key: String) -> Value {
        get throws { try value(forKey: key) }
    }

    public func value(forKey key: String) throws -> Value {
        let i = try attributeIndex(key)
        if isFault { try fireFault() }
        return storedValue(at: i)
    }

    /// `value(forKey:)` for generated entities, without the lookup by name: `index` is the
    /// key's position in the model the class was generated from (an entity's inherited
    /// attributes come first, in its parent's order, so it is the same in sub-entities).
    /// One comparison of names confirms it; a class generated from another version of
    /// the model falls back to the lookup, so it still reads the right attribute.
    @inlinable
    public func value(forKey key: String, expectedIndex index: Int) throws -> Value {
        let names = entity.attributeNames
        guard index < names.count, names[index] == key else { return try value(forKey: key) }
        if isFault { try fireFault() }
        return storedValue(at: index)
    }

    /// The value at an attribute index (see `entity.attributeIndexByName`): the fast path for bulk reads.
    @inlinable
    public func value(at index: Int) throws -> Value {
        if isFault { try fireFault() }
        return storedValue(at: index)
    }

    /// Sets an attribute, checking its type (integers widen to doubles and decimals;
    /// an out-of-range integer, a wrong type or an unknown key throws and changes nothing).
    public func setValue(_ value: Value, forKey key: String) throws {
        let i = try attributeIndex(key)
        try setValue(value, at: i)
    }

    /// `setValue(_:forKey:)` for generated entities: `index` as in `value(forKey:expectedIndex:)`.
    @inlinable
    public func setValue(_ value: Value, forKey key: String, expectedIndex index: Int) throws {
        let names = entity.attributeNames
        guard index < names.count, names[index] == key else { return try setValue(value, forKey: key) }
        try setValue(value, at: index)
    }

    public func setValue(_ value: Value, at index: Int) throws {
        let coerced: Value
        do { coerced = try value.coerced(to: entity.attributes[index].type) } catch {
            throw StoreError.validation(ValidationFailure(entity: entity.name, key: entity.attributes[index].name, reason: error.description, objectURI: objectID.uriString))
        }
        if isDeleted { throw StoreError.invalidOperation("\(objectID.uriString) is deleted; it cannot be changed") }
        // A pending insert keeps no snapshot and is tracked from its insert on: with nobody
        // listening (undo, change observers) the value is just stored (the bulk-insert path).
        if isInserted, contextHandle?.insertsAreUnobserved == true {
            setStoredValue(coerced, at: index)
            return
        }
        let context = try owningContext()
        if isFault { try context.fulfillFault(self) }
        let old = storedValue(at: index)
        if old == coerced { return }
        context.undoStack?.record(.set(objectID, key: entity.attributes[index].name, old: old, new: coerced))
        if committed == nil && !isInserted { committed = values }
        setStoredValue(coerced, at: index)
        context.didChange(self, attributeIndex: index)
    }

    /// Sets several attributes from a dictionary; an unknown key or a bad value throws before anything changes.
    public func setValues(_ dictionary: [String: Value]) throws {
        var checked: [(Int, Value)] = []
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            let i = try attributeIndex(key)
            do { checked.append((i, try value.coerced(to: entity.attributes[i].type))) } catch {
                throw StoreError.validation(ValidationFailure(entity: entity.name, key: key, reason: error.description, objectURI: objectID.uriString))
            }
        }
        for (i, v) in checked { try setValue(v, at: i) }
    }

    /// All attribute values by name (faults are fired).
    public func dictionaryOfValues() throws -> [String: Value] {
        if isFault { try fireFault() }
        var d: [String: Value] = [:]
        for (i, a) in entity.attributes.enumerated() { d[a.name] = storedValue(at: i) }
        return d
    }

    /// Names of attributes and relationships changed since the last save or fetch.
    public var changedKeys: Set<String> {
        var keys: Set<String> = []
        if let committed {
            let current = values
            for i in current.indices where i < committed.count && current[i] != committed[i] { keys.insert(entity.attributes[i].name) }
        } else if isInserted {
            keys.formUnion(entity.attributes.map(\.name))
        }
        for (i, r) in relations.enumerated() where r?.isChanged == true { keys.insert(entity.relationships[i].name) }
        return keys
    }

    /// Values as last saved (the committed snapshot), for changed objects.
    public func committedValues() throws -> [String: Value] {
        if isFault { try fireFault() }
        let source = committed ?? values
        var d: [String: Value] = [:]
        for (i, a) in entity.attributes.enumerated() { d[a.name] = source[i] }
        return d
    }

    // MARK: - Relationships

    /// After a save: the current relationships are now the stored ones.
    func commitRelations() {
        for i in relations.indices where relations[i] != nil { relations[i]!.stored = relations[i]!.current }
    }

    func relationshipIndex(_ key: String) throws -> Int {
        guard let i = entity.relationshipIndexByName[key] else { throw StoreError.unknownKey(entity: entity.name, key: key) }
        return i
    }

    /// The destination of a to-one relationship.
    public func toOne(_ key: String) throws -> ManagedObject? {
        let i = try relationshipIndex(key)
        guard !entity.relationships[i].isToMany else {
            throw StoreError.invalidOperation("\(entity.name).\(key) is a to-many relationship; use toMany(_:)")
        }
        return try owningContext().relation(of: self, at: i).current.first
    }

    /// The destinations of a to-many relationship (in order, if ordered).
    public func toMany(_ key: String) throws -> [ManagedObject] {
        let i = try relationshipIndex(key)
        guard entity.relationships[i].isToMany else {
            throw StoreError.invalidOperation("\(entity.name).\(key) is a to-one relationship; use toOne(_:)")
        }
        return try owningContext().relation(of: self, at: i).current
    }

    /// Sets a to-one relationship; the inverse is updated on both old and new destinations.
    public func setToOne(_ key: String, _ destination: ManagedObject?) throws {
        let i = try relationshipIndex(key)
        guard !entity.relationships[i].isToMany else {
            throw StoreError.invalidOperation("\(entity.name).\(key) is a to-many relationship")
        }
        try owningContext().setRelation(of: self, at: i, to: destination.map { [$0] } ?? [])
    }

    /// Replaces a to-many relationship's contents.
    public func setToMany(_ key: String, _ destinations: [ManagedObject]) throws {
        let i = try relationshipIndex(key)
        guard entity.relationships[i].isToMany else {
            throw StoreError.invalidOperation("\(entity.name).\(key) is a to-one relationship")
        }
        try owningContext().setRelation(of: self, at: i, to: destinations)
    }

    /// Adds one destination to a to-many relationship (no change if it is there):
    /// O(1) when the inverse is a to-one, so adding thousands one by one stays linear.
    public func add(_ destination: ManagedObject, to key: String) throws {
        let i = try relationshipIndex(key)
        guard entity.relationships[i].isToMany else {
            throw StoreError.invalidOperation("\(entity.name).\(key) is a to-one relationship")
        }
        try owningContext().addToRelation(of: self, at: i, destination)
    }

    public func remove(_ destination: ManagedObject, from key: String) throws {
        let current = try toMany(key)
        try setToMany(key, current.filter { $0 !== destination })
    }
}

/// The fields of a `ManagedObject` that only some objects use, kept out of the
/// object (24 bytes of 100,000 fetched objects that have neither changes nor
/// relationships): its committed snapshot once changed, its loaded relationships,
/// its fault batch.
final class ObjectExtras {
    var committed: [Value]?
    var relations: [Relation?] = []
    var batch: FaultBatch?
}

/// A loaded relationship: as stored, and as currently set in the context.
struct Relation {
    var stored: [ManagedObject]
    var current: [ManagedObject]
    var isChanged: Bool { !stored.elementsEqual(current, by: ===) }
}

/// Faults fetched together; firing one loads up to `size` neighbours in one query.
final class FaultBatch {
    var objects: [ManagedObject]
    let size: Int
    init(objects: [ManagedObject], size: Int) {
        self.objects = objects
        self.size = size
    }
}
