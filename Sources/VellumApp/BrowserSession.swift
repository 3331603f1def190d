import Foundation
import VellumStore
import VellumTerminal

/// Owns the state and executes effects against the store. Terminal-free, so
/// tests drive it with keys and observe merged background saves.
@MainActor
public final class BrowserSession {
    public let container: PersistentContainer
    public private(set) var state = AppState()
    public private(set) var rows: RowSource?
    public private(set) var entityCounts: [Int] = []
    public private(set) var quitRequested = false
    /// Set when something visible changed; the loop redraws and clears it.
    public var needsRedraw = true
    /// Theme change requests for the loop (which owns the terminal).
    public var pendingThemeName: String?
    public var suspendRequested = false
    /// IDs this session itself wrote, so they do not flash as "changed by others".
    private var ownWrites: Set<ObjectID> = []
    private var token: ObservationToken?
    public static let flashDuration: TimeInterval = 1.0

    public init(container: PersistentContainer) {
        self.container = container
        let model = container.model
        state.entityNames = model.entityNames.filter { model.entity(named: $0)?.isAbstract == false }
        token = container.viewContext.observeChanges { [weak self] change in
            MainActor.assumeIsolated { self?.didChange(change) }
        }
        refreshCounts()
        if !state.entityNames.isEmpty { open(0) }
    }

    public var context: ManagedObjectContext { container.viewContext }
    public var entity: Entity? { state.currentEntityName.flatMap { container.model.entity(named: $0) } }

    public func setPageSize(_ n: Int) {
        state.pageSize = max(1, n)
        state.clamp()
    }

    // MARK: Keys and effects

    public func handle(_ key: VellumTerminal.Key) async {
        let effects = Reducer.update(&state, key: key)
        needsRedraw = true
        for effect in effects { await perform(effect) }
    }

    func perform(_ effect: Effect) async {
        switch effect {
        case .quit: quitRequested = true
        case .suspend: suspendRequested = true
        case .openEntity(let i): open(i)
        case .setTheme(let name): pendingThemeName = name
        case .applyFilter, .applySort: reloadRows()
        case .beginEdit: beginEdit()
        case .commitEdit(let text): await commitEdit(text)
        case .addRecord: await addRecord()
        case .deleteRecord: await deleteRecord()
        }
    }

    private func open(_ index: Int) {
        guard state.entityNames.indices.contains(index), let entity = container.model.entity(named: state.entityNames[index]) else { return }
        state.selectedEntity = index
        let columns = entity.attributes.filter { !$0.isTransient }
        state.columnNames = columns.map(\.name)
        state.columnTypes = columns.map(\.type)
        do {
            rows = try FetchRowSource(context: context, entityName: entity.name)
            state.rowCount = rows?.count ?? 0
        } catch {
            rows = nil
            state.rowCount = 0
            state.setStatus("\(error)", error: true)
        }
        state.clamp()
    }

    private func reloadRows() {
        guard let source = rows as? FetchRowSource else { return }
        let oldPredicate = source.predicate, oldSort = source.sortDescriptors
        source.predicate = state.filterText.isEmpty ? nil : try? VellumStore.Predicate(format: state.filterText)
        source.sortDescriptors = state.sort.map { [$0] } ?? []
        do {
            try source.reload()
        } catch {
            // Keep the old query: a predicate that parses may still name unknown keys.
            source.predicate = oldPredicate
            source.sortDescriptors = oldSort
            try? source.reload()
            state.setStatus("\(error)", error: true)
        }
        state.rowCount = source.count
        state.clamp()
    }

    private func currentObject() -> ManagedObject? {
        guard let rows, state.cursorRow < rows.count else { return nil }
        return try? rows.object(at: state.cursorRow)
    }

    private func currentAttribute() -> AttributeDescription? {
        guard state.columnNames.indices.contains(state.cursorColumn) else { return nil }
        return entity?.attribute(named: state.columnNames[state.cursorColumn])
    }

    private func beginEdit() {
        guard let object = currentObject(), let attribute = currentAttribute() else { return }
        if [.binary, .transformable, .undefined].contains(attribute.type) {
            state.setStatus("\(attribute.type.rawValue) attributes cannot be edited here", error: true)
            return
        }
        let value = (try? object.value(forKey: attribute.name)) ?? .null
        state.editor = LineEditor(ValueParser.editText(value))
        state.editError = nil
        state.mode = .edit
    }

    private func commitEdit(_ text: String) async {
        guard let object = currentObject(), let attribute = currentAttribute() else { state.mode = .browse; return }
        switch ValueParser.parse(text, for: attribute) {
        case .failure(let error):
            state.editError = error.reason      // stay in the editor
        case .success(let value):
            state.mode = .browse
            state.editError = nil
            let id = object.objectID, key = attribute.name
            ownWrites.insert(id)
            await write("saved \(key)") { ctx in
                try ctx.object(with: id).setValue(value, forKey: key)
            }
        }
    }

    private func addRecord() async {
        guard let name = state.currentEntityName else { return }
        do {
            let temporary = try await container.enqueue { ctx in try ctx.insert(name).objectID }
            // The block ran before the save; the store maps its temporary ID to the permanent one.
            let id = (try? context.object(with: temporary))?.objectID ?? temporary
            ownWrites.insert(id)
            state.setStatus("added a \(name)")
            reloadRows()
            if let index = rows?.rowIDs.firstIndex(of: id) { state.cursorRow = index; state.clamp() }
        } catch {
            state.setStatus("add failed: \(error)", error: true)
        }
        needsRedraw = true
    }

    private func deleteRecord() async {
        guard let object = currentObject() else { return }
        let id = object.objectID
        await write("deleted") { ctx in try ctx.delete(ctx.object(with: id)) }
    }

    private func write(_ success: String, _ body: @escaping @Sendable (ManagedObjectContext) throws -> Void) async {
        do {
            try await container.enqueue(body)
            state.setStatus(success)
        } catch {
            state.setStatus("\(error)", error: true)
        }
        needsRedraw = true
    }

    // MARK: Store events

    private func didChange(_ change: ObjectsDidChange) {
        let now = Date()
        state.lastChange = now
        for id in change.inserted.union(change.updated) {
            if ownWrites.remove(id) == nil { state.flashes[id] = now.addingTimeInterval(Self.flashDuration) }
        }
        if let rows, (try? rows.refresh(after: change)) != nil {
            state.rowCount = rows.count
        }
        refreshCounts()
        state.clamp()
        needsRedraw = true
    }

    private func refreshCounts() {
        entityCounts = state.entityNames.map { (try? context.count(FetchRequest(entityName: $0))) ?? 0 }
    }

    /// Called by the loop on its tick; true if a flash expired (redraw).
    public func tick(now: Date = Date()) -> Bool {
        if state.expireFlashes(now: now) { needsRedraw = true; return true }
        return false
    }

    public func setStatus(_ message: String, error: Bool = false) {
        state.setStatus(message, error: error)
        needsRedraw = true
    }

    public func setThemeName(_ name: String) { state.themeName = name }
}
