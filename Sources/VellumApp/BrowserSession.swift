import Foundation
import VellumStore
import VellumTerminal

/// Owns the state and executes effects against the store. Terminal-free, so
/// tests drive it with keys and observe merged background saves.
///
/// Writes go through the view context (merge policy `.error`), recorded by an
/// `UndoStack` one group per user action, and are saved at once; a save that
/// meets another writer's change fails instead of overwriting it.
@MainActor
public final class BrowserSession {
    public let container: PersistentContainer
    public internal(set) var state = AppState()
    public internal(set) var rows: RowSource?
    public var entityCounts: [Int] { state.entityCounts }
    public let undoStack = UndoStack()
    /// Set when something visible changed; the loop redraws and clears it.
    public var needsRedraw = true {
        didSet { if needsRedraw && !oldValue { onNeedsRedraw?() } }
    }
    /// Wakes the event loop when the state wants a redraw (e.g. after a merged save).
    var onNeedsRedraw: (() -> Void)?
    /// True while this session mutates and saves the view context: those changes do not flash.
    var writingLocally = false
    private var token: ObservationToken?
    /// The record under the cursor, so the selection follows it when rows move.
    var selectedID: ObjectID?
    /// Changes seen but not yet applied to the state (coalesced, applied after all observers ran).
    private var pendingChange: ObjectsDidChange?
    private var changeScheduled = false
    /// The field being edited: record, key, and the value it had when the editor opened.
    private var editTarget: (id: ObjectID, key: String, base: Value)?
    /// The edited record as last seen (values and relationships), to re-add it if another writer deletes it.
    private var editSnapshot: ObjectSnapshot?
    /// Picker: the record and to-one being set, and the candidates.
    /// `base` is the target the record had when the picker opened: choosing over a different
    /// one (another writer set it meanwhile) would overwrite their change unseen.
    private var pickerTarget: (id: ObjectID, key: String, entity: String, base: ObjectID?)?
    public static let flashDuration = AppState.flashDuration

    public init(container: PersistentContainer) {
        self.container = container
        let model = container.model
        container.viewContext.mergePolicy = .error
        container.viewContext.undoStack = undoStack
        state.entityNames = model.entityNames.filter { model.entity(named: $0)?.isAbstract == false }
        token = container.viewContext.observeChanges { [weak self] change in
            MainActor.assumeIsolated { self?.didChange(change) }
        }
        state.themeNames = ThemeLoader().availableThemeNames()
        refreshCounts()
        if !state.entityNames.isEmpty { show(0, base: nil, title: nil) }
    }

    public var context: ManagedObjectContext { container.viewContext }
    public var entity: Entity? { state.currentEntityName.flatMap { container.model.entity(named: $0) } }

    /// Hands the reducer an input that is not a key (the loop, store events);
    /// such inputs return no effects.
    public func send(_ input: Input) {
        _ = Reducer.reduce(&state, input)
    }

    public func setLayout(_ layout: Layout) { send(.layout(layout)) }

    /// The loop says whether "Terminal too small" is shown; keys are ignored while it is.
    public func setTerminalTooSmall(_ tooSmall: Bool) { send(.terminalTooSmall(tooSmall)) }

    // MARK: Keys and effects

    /// The selection is a record, not a row number: a key that only moves the
    /// cursor selects the record under it; after anything else (a save may have
    /// moved rows) the cursor follows the selected record.
    /// Returns what the key asks of the terminal (quit, suspend, a theme) for the loop.
    @discardableResult
    public func handle(_ key: VellumTerminal.Key) async -> [TerminalRequest] {
        applyPendingChange()    // rows another writer moved since the last key
        let effects = Reducer.reduce(&state, .key(key))
        needsRedraw = true
        let requests = effects.compactMap(TerminalRequest.init)
        let storeEffects = effects.filter { TerminalRequest($0) == nil }
        guard !storeEffects.isEmpty else { syncSelection(); return requests }
        for effect in storeEffects { await perform(effect) }
        followSelection()
        return requests
    }

    func perform(_ effect: Effect) async {
        if refusesInReadOnlyMode(effect) { return }
        switch effect {
        case .quit, .suspend, .setTheme: break   // terminal requests: returned by handle(_:) to the loop
        case .openEntity(let i):
            if i != state.selectedEntity || state.navigationTitle != nil { pushPlace() }
            state.filterText = ""; state.sort = nil
            show(i, base: nil, title: nil)
        case .applyFilter(let text): applyFilter(text)
        case .applySort(let sort): applySort(sort)
        case .beginEdit: beginEdit(key: currentAttribute()?.name)
        case .commitEdit(let text): commitEdit(text)
        case .addRecord: addRecord()
        case .deleteRecord: deleteRecord()
        case .undo: undoRedo(undo: true)
        case .redo: undoRedo(undo: false)
        case .back: goBack()
        case .activateDetailField: activateDetailField(edit: false)
        case .editDetailField: activateDetailField(edit: true)
        case .resolveConflict(let keepMine): resolveConflict(keepMine: keepMine)
        case .pickerChoose: choosePicked()
        case .openSummary: openSummary()
        case .search(let text, let forward): search(text, forward: forward)
        case .applyGroup: applyGroup()
        case .export(let format, let path, let replacing): export(format: format, path: path, replacing: replacing)
        case .duplicateRecord: duplicateRecord()
        }
    }

    // MARK: Lists and navigation

    /// Shows entity `index`, optionally restricted by `base` (relationship lists).
    private func show(_ index: Int, base: VellumStore.Predicate?, title: String?, select: ObjectID? = nil) {
        guard state.entityNames.indices.contains(index), let entity = container.model.entity(named: state.entityNames[index]) else { return }
        let columns = entity.attributes.filter { !$0.isTransient }
        var error: String?
        do {
            let predicate = state.filterText.isEmpty ? nil : try VellumStore.Predicate(format: state.filterText)
            rows = try ResultsRowSource(context: context, entityName: entity.name, predicate: predicate,
                                        sortDescriptors: state.sort.map { [$0] } ?? [],
                                        basePredicate: base)
        } catch let failure {
            rows = nil
            error = describeQuery(failure)
        }
        send(.listShown(ListShown(entityIndex: index, title: title, columnNames: columns.map(\.name),
                                  columnTypes: columns.map(\.type), detailFieldCount: columns.count + entity.relationships.count,
                                  rowCount: rows?.count ?? 0, cursorRow: select.map { rows?.index(of: $0) ?? 0 }, error: error)))
        syncSelection()
    }

    private var currentBase: VellumStore.Predicate? { (rows as? ResultsRowSource)?.basePredicate }

    private func pushPlace() {
        state.backStack.append(AppState.Place(entityIndex: state.selectedEntity, basePredicate: currentBase,
                                              title: state.navigationTitle, filterText: state.filterText,
                                              sort: state.sort, selected: selectedID))
    }

    private func goBack() {
        guard let place = state.backStack.popLast() else { return }
        state.filterText = place.filterText
        state.sort = place.sort
        state.focus = .table
        state.cursorRow = 0; state.scrollOffset = 0; state.cursorColumn = 0
        show(place.entityIndex, base: place.basePredicate, title: place.title, select: place.selected)
    }

    /// Set by the event loop: draws the screen now (before a query blocks the loop).
    var drawNow: (() -> Void)?
    /// Set by the event loop on a terminal: Esc or Ctrl-C stops a running filter or sort.
    var cancelKeys: CancelKeyWatcher?

    /// Puts the cursor back on the selected record after rows moved.
    func followSelection() {
        let row = selectedID.flatMap { id in rows?.index(of: id) ?? container.store.permanentID(for: id).flatMap { rows?.index(of: $0) } }
        send(.rowsChanged(RowsChanged(rowCount: rows?.count ?? 0, selectedRow: row,
                                      sectionHeaders: (rows as? ResultsRowSource)?.sectionHeaders() ?? [:])))
        syncSelection()
    }

    func syncSelection() {
        guard let rows, state.cursorRow < rows.count else { selectedID = nil; return }
        // One lookup, not `rowIDs` (a copy of every ID) on each key.
        selectedID = rows.id(at: state.cursorRow)
    }

    /// The selected record (the one in the detail pane), found by its ID: row
    /// actions never go by a row number that may have moved.
    func currentObject() -> ManagedObject? {
        guard let rows, let id = selectedID, let row = rows.index(of: id) else { return nil }
        return try? rows.object(at: row)
    }

    func currentAttribute() -> AttributeDescription? {
        guard state.columnNames.indices.contains(state.cursorColumn) else { return nil }
        return entity?.attribute(named: state.columnNames[state.cursorColumn])
    }

    /// The detail pane's fields: attributes, then relationships.
    public enum DetailField {
        case attribute(AttributeDescription)
        case relationship(RelationshipDescription)
    }

    public func detailFields() -> [DetailField] {
        guard let entity else { return [] }
        return entity.attributes.filter { !$0.isTransient }.map { .attribute($0) } + entity.relationships.map { .relationship($0) }
    }

    private func activateDetailField(edit: Bool) {
        let fields = detailFields()
        guard fields.indices.contains(state.detailCursor), let object = currentObject() else { return }
        switch fields[state.detailCursor] {
        case .attribute(let a):
            beginEdit(key: a.name)
        case .relationship(let r) where !r.isToMany && edit:
            openPicker(object, r)
        case .relationship(let r) where !r.isToMany:
            guard let target = (try? object.toOne(r.name)) ?? nil,
                  let index = state.entityNames.firstIndex(of: target.entity.name) else {
                send(.status("\(r.name) is empty — e picks one", error: true))
                return
            }
            pushPlace()
            state.filterText = ""; state.sort = nil; state.focus = .table
            state.cursorRow = 0; state.scrollOffset = 0
            show(index, base: nil, title: nil, select: target.objectID)
            send(.status("\(r.name) of \(Renderer.displayName(object))"))
        case .relationship(let r):
            guard let index = state.entityNames.firstIndex(of: r.destination) else { return }
            let base = Self.membership(of: object, in: r)
            pushPlace()
            state.filterText = ""; state.sort = nil; state.focus = .table
            state.cursorRow = 0; state.scrollOffset = 0
            show(index, base: base, title: "\(r.name) of \(Renderer.displayName(object))")
        }
    }

    /// The filter listing `object`'s destinations of the to-many `relationship`:
    /// its inverse pointing at `object` (`provider == 12`, `ANY tags == 12`), so
    /// objects related later join the list. An unsaved object (no key yet) gets
    /// the members it has now.
    static func membership(of object: ManagedObject, in relationship: RelationshipDescription) -> VellumStore.Predicate {
        guard let pk = object.objectID.primaryKey else {
            let keys = ((try? object.toMany(relationship.name)) ?? []).compactMap(\.objectID.primaryKey)
            return keys.isEmpty ? .false
                : .comparison(Comparison(.evaluatedObject, .in, .list(keys.map { .constant(.integer($0)) })))
        }
        let inverse = object.context?.model.entity(named: relationship.destination)?.relationship(named: relationship.inverse)
        let comparison = Comparison(.key(relationship.inverse), .equal, .constant(.integer(pk)),
                                    quantifier: inverse?.isToMany == true ? .any : .direct)
        return .comparison(comparison)
    }

    // MARK: Editing

    private func beginEdit(key: String?) {
        if container.store.isReadOnly { refuseEditInReadOnlyMode(); return }
        guard let object = currentObject(), let key, let attribute = entity?.attribute(named: key) else { return }
        guard FieldText.isEditable(attribute.type) else {
            send(.status("\(attribute.type.rawValue) attributes cannot be edited here", error: true))
            return
        }
        let value = (try? object.value(forKey: attribute.name)) ?? .null
        editTarget = (object.objectID, key, value)
        editSnapshot = try? context.snapshot(of: object)
        state.editor = LineEditor(FieldText.editText(value, type: attribute.type))
        state.editError = nil
        state.editIsOptional = attribute.isOptional
        state.conflict = nil
        state.mode = .edit
        if let hint = FieldText.hint(for: attribute) { send(.status(hint)) }
    }

    private func editedAttribute() -> AttributeDescription? {
        guard let target = editTarget else { return nil }
        return container.model.entity(named: target.id.entityName)?.attribute(named: target.key)
    }

    private func commitEdit(_ text: String) {
        guard let target = editTarget, let attribute = editedAttribute() else { state.mode = .browse; return }
        switch FieldText.parse(text, for: attribute) {
        case .failure(let error):
            state.editError = error.reason      // stay in the editor; nothing is written
        case .success(let value):
            // Someone else changed or deleted it while the editor was open: ask.
            if checkConflict(mine: text) { return }
            let note = ValueParser.storedFormNote(text, value).map { " (\($0))" } ?? ""
            save("edit \(target.key)", success: "saved \(target.key)" + note) { ctx in
                try ctx.existingObject(with: target.id).setValue(value, forKey: target.key)
            } onConflict: { [weak self] in
                _ = self?.checkConflict(mine: text, force: true)
            }
            if state.mode == .edit && state.editError == nil { finishEdit() }
        }
    }

    private func finishEdit() {
        state.mode = .browse
        state.editError = nil
        state.conflict = nil
        editTarget = nil
        editSnapshot = nil
    }

    /// Compares the edited record with the value the editor started from.
    /// Returns true (and shows the prompt) if it changed or vanished underneath.
    @discardableResult
    private func checkConflict(mine: String, force: Bool = false) -> Bool {
        guard let target = editTarget else { return false }
        let author = container.lastRemoteChange?.author
        let object = context.registeredObject(for: target.id)
        if object == nil || object?.isDeleted == true || (try? object?.fireFault()) == nil || object?.isFault == true {
            state.conflict = AppState.Conflict(key: target.key, mine: mine, theirs: nil, deleted: true, author: author)
            state.mode = .conflict
            needsRedraw = true
            return true
        }
        let current = (try? object!.value(forKey: target.key)) ?? .null
        if current != target.base || force {
            state.conflict = AppState.Conflict(key: target.key, mine: mine, theirs: Renderer.cellText(current), deleted: false, author: author)
            state.mode = .conflict
            needsRedraw = true
            return true
        }
        return false
    }

    private func resolveConflict(keepMine: Bool) {
        if let replay = state.conflict?.replay { resolveReplayConflict(keepMine: keepMine, replay); return }
        guard let target = editTarget, let conflict = state.conflict else { finishEdit(); return }
        guard keepMine else {
            finishEdit()
            send(.status("kept their \(target.key)"))
            return
        }
        guard let attribute = editedAttribute() else { finishEdit(); return }
        let value: Value
        switch FieldText.parse(conflict.mine, for: attribute) {
        case .success(let v): value = v
        case .failure(let e): state.mode = .edit; state.editError = e.reason; return
        }
        if conflict.deleted {
            // Re-add the record as last seen (same ID, every value and relationship), with the typed value.
            var snapshot = editSnapshot ?? ObjectSnapshot(objectID: target.id, entityName: target.id.entityName, values: [:])
            snapshot.values[target.key] = value
            save("re-add \(snapshot.entityName)", success: "re-added the \(snapshot.entityName) with your \(target.key)") { ctx in
                try ctx.restore(snapshot)
            }
            finishEdit()
            selectedID = target.id
            followSelection()
            return
        }
        // Theirs is now the base: save mine over it, knowingly.
        if let object = context.registeredObject(for: target.id) {
            editTarget = (target.id, target.key, (try? object.value(forKey: target.key)) ?? .null)
        }
        save("edit \(target.key)", success: "saved \(target.key) (kept mine)") { ctx in
            try ctx.existingObject(with: target.id).setValue(value, forKey: target.key)
        } onConflict: { [weak self] in
            _ = self?.checkConflict(mine: conflict.mine, force: true)
        }
        if state.mode == .conflict && state.conflict == conflict { finishEdit() }
    }

    private func addRecord() {
        guard let name = state.currentEntityName else { return }
        var newID: ObjectID?
        save("add \(name)", success: "added a \(name)") { ctx in newID = try ctx.insert(name).objectID }
        if let id = newID {
            selectedID = container.store.permanentID(for: id) ?? id
            followSelection()
        }
    }

    private func deleteRecord() {
        guard let object = currentObject() else { return }
        let id = object.objectID
        save("delete", success: "deleted") { ctx in try ctx.delete(ctx.existingObject(with: id)) }
    }

    /// One user action: mutate the view context in an undo group and save at once.
    /// On failure nothing stays behind (rollback, undo group dropped).
    func save(_ action: String, success: String, _ body: (ManagedObjectContext) throws -> Void,
                      onConflict: (() -> Void)? = nil) {
        writingLocally = true
        defer { writingLocally = false }
        undoStack.beginGroup(action)
        do {
            try body(context)
            undoStack.endGroup()
            _ = try context.save()
            send(.store(.saved(success)))
        } catch {
            undoStack.endGroup()
            context.rollback()
            undoStack.discardLastAction()
            // Only a changed or deleted record asks mine/theirs; a uniqueness conflict is a message.
            if case StoreError.conflicts(let cs) = error, cs.allSatisfy({ $0.kind == .version }), let onConflict {
                onConflict()
            } else {
                send(.store(.saveFailed(describe(error))))
            }
        }
        needsRedraw = true
    }

    func describe(_ error: Error) -> String {
        ErrorText.describe(error)
    }

    // MARK: Picker (to-one)

    private func openPicker(_ object: ManagedObject, _ r: RelationshipDescription) {
        guard let target = container.model.entity(named: r.destination) else { return }
        let candidates: [PickerList.Candidate]
        do {
            var request = FetchRequest(entityName: target.name)
            if let sort = ResultsRowSource.defaultSort(for: target) { request.sortDescriptors = [sort] }
            request.fetchLimit = 2000
            candidates = try context.fetch(request).map { PickerList.Candidate(id: $0.objectID, name: Renderer.displayName($0)) }
        } catch {
            send(.status(describe(error), error: true))
            return
        }
        let current = ((try? object.toOne(r.name)) ?? nil)?.objectID
        pickerTarget = (object.objectID, r.name, target.name, current)
        send(.pickerOpened(title: "\(r.name) of \(Renderer.displayName(object)) → \(target.name)",
                           candidates: candidates, current: current))
    }

    private func choosePicked() {
        let shown = state.picker.shown
        guard let target = pickerTarget, shown.indices.contains(state.pickerCursor) else { state.mode = .browse; return }
        guard shown.count > 1 || state.editor.text.isEmpty else {
            send(.status("no \(target.entity) matches '\(state.editor.text)' — change the search, or Esc", error: true))
            return
        }
        let chosen = shown[state.pickerCursor]
        let name = chosen.flatMap(state.picker.name(of:))
        // Another writer changed or deleted the relationship while the picker was open:
        // say what it is now and let the user choose again, knowingly.
        guard let object = context.registeredObject(for: target.id), !object.isDeleted, (try? object.fireFault()) != nil else {
            state.mode = .browse
            pickerTarget = nil
            send(.status("not set: this \(target.id.entityName) was deleted by another writer", error: true))
            return
        }
        let now = ((try? object.toOne(target.key)) ?? nil)
        if now?.objectID != target.base {
            pickerTarget?.base = now?.objectID
            let theirs = now.map { Renderer.displayName($0) } ?? "∅"
            send(.status("\(target.key) is now \(theirs) (another writer) — Enter: yours, Esc: theirs", error: true))
            return
        }
        state.mode = .browse
        pickerTarget = nil
        save("set \(target.key)", success: name.map { "\(target.key) = \($0)" } ?? "\(target.key) cleared") { ctx in
            let o = try ctx.existingObject(with: target.id)
            try o.setToOne(target.key, try chosen.map { try ctx.existingObject(with: $0) })
        }
    }

    // MARK: Store events

    private func didChange(_ change: ObjectsDidChange) {
        let now = Date()
        if !writingLocally { send(.store(.changedElsewhere(change.inserted.union(change.updated), at: now))) }
        if let target = editTarget, state.mode == .edit,
           change.updated.contains(target.id) || change.refreshed.contains(target.id)
            || change.deleted.contains(target.id) || change.invalidated.contains(target.id) || change.storeChangedExternally {
            if let o = context.registeredObject(for: target.id), !o.isDeleted, let seen = try? context.snapshot(of: o) { editSnapshot = seen }
            if !writingLocally { checkConflict(mine: state.editor.text) }
        }
        // The results controller observes the same context; apply after every observer ran.
        if var pending = pendingChange {
            pending.inserted.formUnion(change.inserted)
            pending.updated.formUnion(change.updated)
            pending.deleted.formUnion(change.deleted)
            pending.refreshed.formUnion(change.refreshed)
            pending.invalidated.formUnion(change.invalidated)
            pending.storeChangedExternally = pending.storeChangedExternally || change.storeChangedExternally
            pending.invalidatedAll = pending.invalidatedAll || change.invalidatedAll
            pendingChange = pending
        } else {
            pendingChange = change
        }
        needsRedraw = true
        guard !changeScheduled else { return }
        changeScheduled = true
        Task { @MainActor [weak self] in self?.applyPendingChange() }
    }

    /// Applies coalesced changes: row list, selection by identity, counts, last writer.
    public func applyPendingChange() {
        changeScheduled = false
        guard let change = pendingChange else { return }
        pendingChange = nil
        if let rows, (try? rows.refresh(after: change)) != nil {
            if let source = rows as? ResultsRowSource, !source.lastInserted.isEmpty, !writingLocally {
                send(.store(.changedElsewhere(source.lastInserted, at: Date())))
            }
        }
        if let remote = container.lastRemoteChange { send(.store(.remoteWriter(author: remote.author, at: remote.date))) }
        recountEntities(resizedBy: change)
        followSelection()
        needsRedraw = true
    }

    private func refreshCounts() {
        let counts = state.entityNames.map { (try? context.count(FetchRequest(entityName: $0))) ?? 0 }
        send(.store(.counted(Dictionary(uniqueKeysWithValues: counts.enumerated().map { ($0, $1) }))))
    }

    /// Recounts only the entities a change can have grown or shrunk (an insert or
    /// delete of one of their kind): an edit runs no `COUNT(*)`, an add one.
    private func recountEntities(resizedBy change: ObjectsDidChange) {
        if change.storeChangedExternally || change.invalidatedAll || entityCounts.count != state.entityNames.count {
            refreshCounts()
            return
        }
        let resized = Set(change.inserted.union(change.deleted).union(change.invalidated).map(\.entityName))
        guard !resized.isEmpty else { return }
        let model = container.model
        var counts: [Int: Int] = [:]
        for (i, name) in state.entityNames.enumerated()
        where resized.contains(where: { model.entity(named: $0)?.isKind(of: name) == true }) {
            counts[i] = (try? context.count(FetchRequest(entityName: name))) ?? 0
        }
        send(.store(.counted(counts)))
    }

    /// Called by the loop on its tick; true if a flash expired (redraw).
    public func tick(now: Date = Date()) -> Bool {
        let before = state.flashes.count
        send(.tick(now))
        if state.flashes.count != before { needsRedraw = true; return true }
        return false
    }

    public func setStatus(_ message: String, error: Bool = false) {
        send(.status(message, error: error))
        needsRedraw = true
    }
}
