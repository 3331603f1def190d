import Foundation

/// A context as its objects see it: one reference they share, cleared by the
/// context's deinit. Unowned rather than weak: a weak reference would give the
/// context a side table, and every retain and release of it would take the
/// runtime's slow path (10% of a bulk insert). Safe because objects are confined
/// to their context's queue, the queue the context ends on.
final class ContextHandle {
    unowned(unsafe) var context: ManagedObjectContext?
    /// The context is alive, with no undo stack and no change observers: a pending
    /// insert's new value needs no record (kept here, where every object can read it).
    @exclusivity(unchecked) var insertsAreUnobserved = true
}

/// A scratch pad of managed objects over one store: insert, fetch, change,
/// delete, then `save()` all of it in one transaction — or `rollback()`.
///
/// A context is confined to one queue (the main actor for the view context, a
/// private queue for background contexts) and is deliberately not `Sendable`;
/// objects never leave it, object IDs do. Uniquing: at most one object per ID.
public final class ManagedObjectContext {
    public let store: PersistentStore
    let connection: Connection
    /// Named in persistent history and in did-save events.
    public var transactionAuthor: String?
    public var name: String?
    /// How `save()` resolves conflicts with other writers' changes.
    public var mergePolicy: MergePolicy = .error
    /// `save()` writes again after a PostgreSQL serialization failure or deadlock
    /// (`ServerConflictRetry`). Off for the write queue's contexts: the queue runs the
    /// whole block again, reading afresh.
    var retriesServerConflicts = true
    // The fields every insert and every `setValue` touch skip the runtime exclusivity
    // check (~10% of a 100k-object insert): a context is confined to its queue, and no
    // access to one of them spans a call that could reach the same field again.

    /// Records changes for undo/redo when set (the UI sets one on the view context).
    @exclusivity(unchecked) public var undoStack: UndoStack? { didSet { noteObservation() } }

    /// Objects by ID: the uniquing table.
    let registry = ObjectRegistry()
    /// Changed or deleted saved objects not yet saved, by identity. Pending
    /// inserts are not here but in `insertedInOrder`: a bulk insert then hashes nothing.
    @exclusivity(unchecked) var changedObjects: [ObjectIdentifier: ManagedObject] = [:]
    /// Objects inserted since the last save, in insertion order (some may since be deleted);
    /// saves give keys in this order.
    @exclusivity(unchecked) var insertedInOrder: [ManagedObject] = []

    /// Rows of inserted objects (see `RowBlock`).
    @exclusivity(unchecked) var insertedRows = RowBlockWriter()

    /// Pending inserts not deleted since.
    var liveInserts: LazyFilterSequence<[ManagedObject]> {
        insertedInOrder.lazy.filter(PendingObjects.isLiveInsert)
    }

    /// Every object with unsaved changes: changed and deleted saved objects, then
    /// pending inserts. A lazy sequence: a bulk insert's 100,000 pending objects
    /// are not copied each time a relationship or count asks about them.
    var pendingObjects: PendingObjects {
        PendingObjects(changed: changedObjects.values, inserted: insertedInOrder)
    }

    /// Select lists per root entity, built once.
    var selections: [String: RowLoader.Selection] = [:]
    /// Observers of local changes (`objectsDidChange`), called synchronously on the context's queue.
    @exclusivity(unchecked) var changeObservers: [UUID: (ObjectsDidChange) -> Void] = [:] { didSet { noteObservation() } }
    /// Errors of non-throwing accessors (the keyed subscript, generated properties); the next `save()` throws the first.
    @exclusivity(unchecked) var deferredErrors: [StoreError] = []
    /// Observers of saves, called after commit.
    var saveObservers: [UUID: (DidSave) -> Void] = [:]

    /// What its objects hold to find it (see `ManagedObject.context`).
    let handle = ContextHandle()
    private func noteObservation() { handle.insertsAreUnobserved = undoStack == nil && changeObservers.isEmpty }
    /// The entity `insert(_:)` last checked is this model's (the check is a lookup by name).
    @exclusivity(unchecked) private var lastInsertedEntity: Entity?

    public convenience init(store: PersistentStore) throws {
        self.init(store: store, connection: try store.makeReaderConnection())
    }

    /// A context reading through an existing connection (the write queue reuses one).
    init(store: PersistentStore, connection: Connection) {
        self.store = store
        self.connection = connection
        handle.context = self
    }

    /// Breaks object cycles and detaches objects; used when a short-lived context ends.
    func discard() {
        for o in registry.values { o.relations = []; o.detachFromContext() }
        registry.removeAll()
        changedObjects.removeAll()
        insertedInOrder.removeAll()
    }

    deinit {
        handle.context = nil
        handle.insertsAreUnobserved = false
        // Break reference cycles between related objects.
        registry.forEach { if !$0.relations.isEmpty { $0.relations = [] } }
    }

    public var model: ManagedObjectModel { store.model }

    func entity(_ name: String) throws -> Entity {
        guard let e = store.model.entity(named: name) else { throw StoreError.unknownEntity(name) }
        return e
    }

    // MARK: - Objects by ID

    /// All objects currently registered (materialized or faults), including unsaved inserts.
    public var registeredObjects: [ManagedObject] {
        // A restored object is a pending insert registered under its old ID: listed once.
        registry.values.filter { !$0.isInserted } + liveInserts
    }

    /// The registered object for an ID, if any; never does I/O.
    public func registeredObject(for id: ObjectID) -> ManagedObject? {
        id.isTemporary ? insertedObject(for: id) : registry[id]
    }

    /// Unsaved inserts are found by binary search on their temporary key's counter
    /// (they are kept in insertion order), not hashed into the registry: bulk inserts
    /// then cost no hash-table growth.
    func insertedObject(for id: ObjectID) -> ManagedObject? {
        guard case .temporary(let uuid) = id.key, let counter = TemporaryKey.counter(of: uuid) else { return nil }
        var low = 0, high = insertedInOrder.count
        while low < high {
            let mid = (low + high) / 2
            if insertedInOrder[mid].temporaryCounter < counter { low = mid + 1 } else { high = mid }
        }
        guard low < insertedInOrder.count else { return nil }
        let o = insertedInOrder[low]
        return o.temporaryCounter == counter && o.isInserted && !o.isDeleted && o.objectID == id ? o : nil
    }

    /// The object for an ID: the registered one, or a fault (no I/O unless the ID
    /// names an entity with sub-entities, whose concrete entity is looked up).
    public func object(with id: ObjectID) throws -> ManagedObject {
        if let o = registeredObject(for: id) { return o }
        if id.isTemporary, let permanent = store.permanentID(for: id), permanent != id { return try object(with: permanent) }
        guard id.storeIdentifier == store.identifier, !id.isTemporary else {
            throw StoreError.wrongContext(detail: "\(id.uriString) does not belong to this store or is an unsaved object of another context")
        }
        var entity = try self.entity(id.entityName)
        if !entity.subentityNames.isEmpty, let pk = id.primaryKey {
            let layout = store.layout
            let table = layout.table(of: entity.name)!
            if let name = try connection.scalarText("SELECT \(layout.entityExpression(table: table, alias: nil)) FROM \(layout.dialect.quote(table)) WHERE \(layout.qualifiedKey()) = ?", [.integer(pk)]),
               let concrete = store.model.entity(named: name) { entity = concrete }
        }
        return register(entity: entity, id: id, isFault: true)
    }

    /// The object for an ID, loaded from the store; throws `objectNotFound` when it does not exist.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let o = try object(with: id)
        if o.isDeleted { throw StoreError.objectNotFound(id) }
        try o.fireFault()
        return o
    }

    func register(entity: Entity, id: ObjectID, isFault: Bool) -> ManagedObject {
        let o = ManagedObject(entity: entity, objectID: id, context: self, isFault: isFault)
        registry[id] = o
        return o
    }

    // MARK: - Insert

    /// Inserts a new object of `entityName` with default values and a temporary ID.
    @discardableResult
    public func insert(_ entityName: String) throws -> ManagedObject {
        try insert(entityName, values: [:])
    }

    /// Inserts an object with default values overridden by `values`; an unknown key
    /// or a bad value throws and inserts nothing.
    @discardableResult
    public func insert(_ entityName: String, values: [String: Value]) throws -> ManagedObject {
        let entity = try self.entity(entityName)
        return try insert(entity) { row in
            for (key, value) in values {
                guard let i = entity.attributeIndex(named: key) else { throw StoreError.unknownKey(entity: entityName, key: key) }
                do { row[i] = try value.coerced(to: entity.attributes[i].type) } catch {
                    throw StoreError.validation(ValidationFailure(entity: entityName, key: key, reason: "\(error)"))
                }
            }
        }
    }

    /// Inserts an object of `entity` (from this context's model) with default values:
    /// the fast path for bulk inserts, with values then set by index (`setValue(_:at:)`).
    @discardableResult
    public func insert(_ entity: Entity) throws -> ManagedObject {
        if entity !== lastInsertedEntity {
            guard store.model.entity(named: entity.name) === entity else {
                throw StoreError.invalidOperation("entity \(entity.name) is not from this context's model")
            }
            lastInsertedEntity = entity
        }
        return try insert(entity) { _ in }
    }

    /// Creates the object on a new row holding the defaults as changed by `fill`;
    /// when `fill` throws, no object is created (the row is left unused).
    private func insert(_ entity: Entity, fill: (UnsafeMutablePointer<Value>) throws -> Void) throws -> ManagedObject {
        if entity.isAbstract { throw StoreError.invalidOperation("entity \(entity.name) is abstract and cannot be instantiated") }
        let defaults = entity.defaultValues
        let row = insertedRows.nextRow(width: defaults.count)
        if entity.defaultValuesAreBitwise, !defaults.isEmpty {
            defaults.withUnsafeBytes { UnsafeMutableRawPointer(row).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        } else {
            row.initialize(from: defaults, count: defaults.count)
        }
        try fill(row)
        let (uuid, counter) = TemporaryKey.next()
        let o = ManagedObject(entity: entity, objectID: ObjectID(scope: entity.temporaryIDScope, key: .temporary(uuid)), context: self, isFault: false)
        o.temporaryCounter = counter
        o.useSharedRow(row, in: insertedRows.block)
        o.isInserted = true
        insertedInOrder.append(o)
        if let undoStack, undoStack.isRecording {
            undoStack.record(.insert(ObjectSnapshot(objectID: o.objectID, entity: entity, values: o.values)))
        }
        if !changeObservers.isEmpty { notifyChange(inserted: [o]) }
        return o
    }

    // MARK: - Change tracking

    func didChange(_ object: ManagedObject, attributeIndex: Int) {
        // A pending insert is tracked from `insert` on (and cannot be changed once deleted).
        if !object.isInserted { changedObjects[ObjectIdentifier(object)] = object }
        guard !changeObservers.isEmpty else { return }
        // Pending inserts are re-announced as inserted so observers see their values as they are set.
        if object.isInserted { notifyChange(inserted: [object]) } else {
            notifyChange(updated: [object], keys: [object.objectID: [object.entity.attributes[attributeIndex].name]])
        }
    }

    /// True if any object has unsaved changes.
    public var hasChanges: Bool { changedObjects.values.contains { $0.hasChanges } || !liveInserts.isEmpty || !deferredErrors.isEmpty }

    public var insertedObjects: [ManagedObject] { Array(liveInserts) }
    public var updatedObjects: [ManagedObject] { changedObjects.values.filter { !$0.isInserted && !$0.isDeleted && $0.hasChangedValues } }
    public var deletedObjects: [ManagedObject] { changedObjects.values.filter { $0.isDeleted && !$0.isInserted } }

    // MARK: - Faults

    /// Loads a fault's row (and its batch neighbours).
    func fulfillFault(_ object: ManagedObject) throws {
        guard object.isFault else { return }
        var group = [object]
        if let batch = object.batch, let i = batch.objects.firstIndex(where: { $0 === object }) {
            let start = (i / batch.size) * batch.size
            group = batch.objects[start..<min(batch.objects.count, start + batch.size)].filter { $0.isFault }
        }
        try RowLoader(context: self).load(group)
        if object.isFault { throw StoreError.objectNotFound(object.objectID) }
    }

    // MARK: - Rollback and refresh

    /// Discards every unsaved change: inserted objects are dropped, changed and
    /// deleted ones return to their last saved state.
    public func rollback() {
        deferredErrors.removeAll()
        var inserted: [ManagedObject] = [], refreshed: [ManagedObject] = []
        for o in pendingObjects {
            if o.isInserted {
                o.isDeleted = true
                if !o.objectID.isTemporary { registry[o.objectID] = nil }   // a restored object
                inserted.append(o)
            } else {
                if let committed = o.committed { o.values = committed }
                o.committed = nil
                o.isDeleted = false
                refreshed.append(o)
            }
        }
        // Relationships revert to their stored state everywhere.
        for o in registry.values {
            for i in o.relations.indices where o.relations[i] != nil {
                o.relations[i]!.current = o.relations[i]!.stored.filter { !$0.isInserted }
                o.relations[i]!.stored = o.relations[i]!.current
            }
        }
        changedObjects.removeAll()
        insertedInOrder.removeAll()
        notify(ObjectsDidChange(inserted: [], updated: [], deleted: Set(inserted.map(\.objectID)),
                                refreshed: Set(refreshed.map(\.objectID)), invalidated: [], invalidatedAll: false, changedKeys: [:]))
    }

    /// Refreshes an object from the store. With `mergeChanges` its unsaved changes
    /// are kept on top of the stored values; without, they are discarded.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        guard !object.isInserted else { return }
        if !mergeChanges {
            changedObjects[ObjectIdentifier(object)] = nil
            object.isDeleted = false
            object.committed = nil
            object.relations = []
        }
        let (_, gone) = try reloadKeepingLocalChanges([object])
        if gone.isEmpty {
            notify(ObjectsDidChange(refreshed: [object.objectID]))
        } else {
            notify(ObjectsDidChange(deleted: gone, invalidated: gone))
        }
    }

    func changedAttributeValues(_ object: ManagedObject) -> [Int: Value] {
        guard let committed = object.committed else { return [:] }
        var d: [Int: Value] = [:]
        for i in object.values.indices where object.values[i] != committed[i] { d[i] = object.values[i] }
        return d
    }

    /// Returns the context to its base state, as Core Data's `reset()`: every object
    /// is forgotten and pending changes are discarded. Objects fetched or inserted
    /// before are invalid afterwards — reading or writing one throws — so drop them
    /// and fetch again. Observers get one `invalidatedAll` event.
    public func reset() {
        deferredErrors.removeAll()
        for o in registry.values { o.invalidateForReset() }
        for o in insertedInOrder { o.invalidateForReset() }
        registry.removeAll()
        changedObjects.removeAll()
        insertedInOrder.removeAll()
        notify(ObjectsDidChange(inserted: [], updated: [], deleted: [], refreshed: [], invalidated: [], invalidatedAll: true, changedKeys: [:]))
    }

    // MARK: - Conveniences from the seeds

    /// True if no object of `entity` (saved or pending in this context) has `value` for `attribute`.
    public func isUnique(entity entityName: String, attribute: String, value: Value, excluding: ManagedObject? = nil) throws -> Bool {
        let entity = try self.entity(entityName)
        guard let index = entity.attributeIndexByName[attribute] else { throw StoreError.unknownKey(entity: entityName, key: attribute) }
        let coerced = try value.coerced(to: entity.attributes[index].type)
        for o in pendingObjects where o !== excluding && !o.isDeleted && o.entity.rootName == entity.rootName
            && o.entity.attributeIndexByName[attribute] == index && o.values[index] == coerced { return false }
        let mapping = store.layout.mapping(for: entityName)!
        guard let column = mapping.attributeColumns[index] else { return true }
        let q = store.layout.dialect
        let rows = try connection.rows("SELECT \(store.layout.qualifiedKey()) FROM \(q.quote(mapping.table)) WHERE \(q.quote(column)) = ?", [coerced])
        for row in rows {
            guard let pk = row[0].integerValue else { continue }
            let id = store.objectID(entity: entityName, primaryKey: pk)
            if let o = registry[id] {
                if o === excluding || o.isDeleted { continue }
                if o.committed != nil && o.values[index] != coerced { continue }
            }
            return false
        }
        return true
    }
}
