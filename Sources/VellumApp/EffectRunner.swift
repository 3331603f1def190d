import Foundation
import VellumStore
import VellumTerminal

/// The one gateway from the browser to the store: it carries out the effects the
/// reducer returns (fetches, lists, edits, undo, export) and reports what it found
/// as inputs (`EffectResult`, `StoreEvent`, `ListShown`, `RowsChanged`). It reads
/// the state but never writes it; it holds only what the state cannot: the row
/// source, the undo stack and the records an open editor or picker is about.
///
/// Edits, adds, deletes and relationship changes are written by the container's
/// write queue (`EffectRunner+Write`), never on the main thread; each records its
/// undo action, kept on the view's `UndoStack`. Undo and redo replay in the view
/// context (merge policy `.error`) and save there. Neither overwrites another
/// writer's change unseen: the mine/theirs prompt asks.
@MainActor
final class EffectRunner {
    let container: PersistentContainer
    /// The session whose reducer owns the state (set once, right after init).
    weak var session: BrowserSession?
    private(set) var rows: RowSource?
    let undoStack = UndoStack()
    /// The browser's writes on the write queue that have not come back yet.
    var writes: [UUID: Task<Void, Never>] = [:]
    /// An undo (true) or redo (false) pressed while a save was in flight, run once every write is back.
    var replayAfterWrites: Bool?
    /// Changes merged now are this browser's own (no flash, no conflict with itself).
    var isWritingHere: Bool { !writes.isEmpty }
    /// To-many counts of records shown in the detail pane (the view model reads them).
    var relatedCounts = RelatedCounts()
    /// The value another writer left in the field of the open conflict prompt (nil: deleted).
    var theirsValue: Value?
    var token: ObservationToken?
    /// The record under the cursor, so the selection follows it when rows move.
    var selectedID: ObjectID?
    /// Changes seen but not yet applied to the state (coalesced, applied after all observers ran).
    var pendingChange: ObjectsDidChange?
    var changeScheduled = false
    /// Section figures (`:group KEY sum(price)`) are due again after a change.
    var sectionFiguresScheduled = false
    /// The field being edited: record, key, and the value it had when the editor opened.
    var editTarget: (id: ObjectID, key: String, base: Value)?
    /// The edited record as last seen (values and relationships), to re-add it if another writer deletes it.
    var editSnapshot: ObjectSnapshot?
    /// `D` while it asks for the copy's unique values (`EffectRunner+Duplicate.swift`).
    var pendingDuplicate: PendingDuplicate?
    /// Picker: the record and to-one being set, and the candidates.
    /// `base` is the target the record had when the picker opened: choosing over a different
    /// one (another writer set it meanwhile) would overwrite their change unseen.
    var pickerTarget: (id: ObjectID, key: String, entity: String, base: ObjectID?)?
    /// Membership picker: the record and to-many being changed, and its members when it opened.
    var membershipTarget: (id: ObjectID, key: String, base: Set<ObjectID>)?
    /// `:set` asked: the marked rows' values of `key` as shown then (rows loaded in the view context).
    var bulkEditBase: (key: String, values: [ObjectID: Value])?
    /// The long store work running off the main thread, if any (`EffectRunner+Background`).
    var backgroundWork: BackgroundWork?
    /// Numbers each piece of long work, so a late result of a cancelled one is ignored.
    var workGeneration = 0
    /// The reader long work runs on, kept between pieces so its page cache stays warm;
    /// dropped when a piece is cancelled (the interrupts keep hitting it until that piece
    /// gives up, so the next piece gets a fresh one).
    var reader: BackgroundContext?
    /// The reader `:group KEY sum(price)` figures are counted on (off the main thread; its
    /// own, so a refresh never waits for, or is refused by, the user's long work).
    var figuresReader: BackgroundContext?
    /// The figures' refresh in flight; a result for an older request than the latest is dropped.
    var figuresTask: Task<Void, Never>?
    var figuresGeneration = 0

    /// Where column layouts are kept (nil: not kept, as in tests).
    let layoutFile: ColumnLayoutFile?
    /// Where the browser's own settings are kept (nil: not kept, as in tests).
    let settingsFile: BrowserSettingsFile?

    init(container: PersistentContainer, layoutFile: ColumnLayoutFile? = nil, settingsFile: BrowserSettingsFile? = nil) {
        self.settingsFile = settingsFile
        self.container = container
        self.layoutFile = layoutFile
        container.viewContext.mergePolicy = .error
        container.viewContext.undoStack = undoStack
    }

    /// Lists the entities, counts them and opens `opening` (else the first).
    func start(opening: String? = nil) {
        let model = container.model
        send(.result(.storeOpened(entityNames: model.entityNames.filter { model.entity(named: $0)?.isAbstract == false },
                                  themeNames: ThemeLoader().availableThemeNames())))
        token = container.viewContext.observeChanges { [weak self] change in
            MainActor.assumeIsolated { self?.didChange(change) }
        }
        container.onMergeError { [weak self] error in
            self?.send(.store(.mergeFailed(ErrorText.describe(error))))
            self?.redraw()
        }
        if let settingsFile { send(.settingsLoaded(settingsFile.load())) }
        refreshCounts()
        if !state.entityNames.isEmpty { show(opening.flatMap(state.entityNames.firstIndex) ?? 0, base: nil, title: nil) }
    }

    /// The state as the reducer left it (read-only here).
    var state: AppState { session?.state ?? AppState() }

    /// Reports to the reducer.
    func send(_ input: Input) { session?.send(input) }

    /// Asks the loop to redraw.
    func redraw() { session?.needsRedraw = true }

    var context: ManagedObjectContext { container.viewContext }
    /// Writes waiting or running on the write queue (the status bar shows them).
    var pendingWrites: Int { container.pendingWriteCount }

    /// Indexes the rest of the open list after its first page showed (the loop asks
    /// when it wakes). True when that changed what is shown (or failed: the status says why).
    func completeIndexing() -> Bool {
        // Paused while long work runs (`runInBackground`); the loop asks again after it.
        guard let rows, backgroundWork?.pausesIndexing != true else { return false }
        do { return try rows.completeIndexing() } catch {
            send(.status("listing the rows: \(describe(error))", error: true))
            return true
        }
    }
    var entity: Entity? { state.currentEntityName.flatMap { container.model.entity(named: $0) } }

    func perform(_ effect: Effect) async {
        if refusesInReadOnlyMode(effect) { return }
        switch effect {
        case .quit, .suspend, .setTheme, .setMouseCapture: break   // terminal requests: returned by handle(_:) to the loop
        case .openEntity(let i):
            send(.result(.leftList(i != state.selectedEntity || state.navigationTitle != nil ? currentPlace() : nil)))
            show(i, base: nil, title: nil)
        case .applyFilter(let text): applyFilter(text)
        case .applySort(let sort): applySort(sort)
        case .applySorts(let sorts): apply(filter: state.filterText, sort: sorts.first, thenBy: Array(sorts.dropFirst()), what: "sort")
        case .beginEdit: beginEdit(key: currentAttribute()?.name)
        case .commitEdit(let text): commitEdit(text)
        case .addRecord(let form): addRecord(form: form)
        case .formPick(let key): pickIntoForm(key)
        case .saveForm: saveForm()
        case .deleteRecord: deleteRecord()
        case .undo: undoRedo(undo: true)
        case .redo: undoRedo(undo: false)
        case .back: goBack()
        case .activateDetailField: activateDetailField(edit: false)
        case .editDetailField: activateDetailField(edit: true)
        case .activateRelationship(let name, let edit):
            guard let r = entity?.relationship(named: name), let object = currentObject() else { return }
            activate(r, of: object, edit: edit)
        case .resolveConflict(let keepMine): resolveConflict(keepMine: keepMine)
        case .pickerChoose: if state.picker.isMembership { saveMembership() } else { choosePicked() }
        case .openSummary: openSummary()
        case .openPager: openPager()
        case .jumpToRecord(let text): jumpToRecord(text)
        case .search(let text, let forward, let regex): search(FindPattern(text, regex: regex), forward: forward)
        case .applyGroup(let previous): applyGroup(previous: previous)
        case .export(let format, let path, let replacing): export(format: format, path: path, replacing: replacing)
        case .duplicateRecord: duplicateRecord()
        case .duplicateValue(let text): duplicateValue(text)
        case .saveColumnLayout(let entity, let layout): saveColumnLayout(layout, for: entity)
        case .saveSettings(let settings): saveSettings(settings)
        case .mark(let change): mark(change)
        case .yank(let yank): self.yank(yank)
        case .deleteMarked: deleteMarked()
        case .previewDeletion: previewDeletion()
        case .cancelWork(let quietly): cancelWork(quietly: quietly)
        case .setMarked(let key, let text): setMarked(key: key, text: text)
        case .noteBulkEditBase(let key): noteBulkEditBase(key: key)
        case .planTracking(let untrack): await planTracking(untrack: untrack)
        case .changeTracking(let change): await changeTracking(change)
        }
    }

    // MARK: Lists and navigation

    /// Shows entity `index`, optionally restricted by `base` (relationship lists).
    func show(_ index: Int, base: VellumStore.QueryPredicate?, title: String?, select: ObjectID? = nil, column: String? = nil) {
        guard state.entityNames.indices.contains(index), let entity = container.model.entity(named: state.entityNames[index]) else { return }
        // Work read for the list being left is of no use now (an export runs on: it writes a file).
        if backgroundWork?.reportsWhenStopped == false { cancelWork(quietly: true) }
        let columns = entity.attributes.filter { !$0.isTransient }
        let relationshipColumns = entity.relationships.map { RelationshipColumn($0, destination: container.model.entity(named: $0.destination)) }
        var error: String?
        do {
            let predicate = state.filterText.isEmpty ? nil : try VellumStore.QueryPredicate(format: state.filterText)
            let source = try ResultsRowSource(context: context, entityName: entity.name, predicate: predicate,
                                              sortDescriptors: state.sortDescriptors,
                                              basePredicate: base,
                                              knownCount: state.entityCounts.indices.contains(index) ? state.entityCounts[index] : nil)
            source.onListChanged = { [weak self] in self?.listChangedByItself($0) }
            source.onIndexed = { [weak self] in self?.listIndexed($0) }
            rows = source
        } catch let failure {
            rows = nil
            error = describeQuery(failure)
        }
        var layouts = layoutFile?.load() ?? [:]
        let layout = layouts.removeValue(forKey: entity.name)
        send(.listShown(ListShown(entityIndex: index, title: title, columnNames: columns.map(\.name) + relationshipColumns.map(\.name),
                                  columnTypes: columns.map(\.type) + relationshipColumns.map(\.displayType),
                                  relationshipColumns: relationshipColumns,
                                  detailFieldCount: columns.count + entity.relationships.count,
                                  rowCount: rows?.count ?? 0, cursorRow: select.map { (try? (rows as? ResultsRowSource)?.indexAmongAll(of: $0)) ?? rows?.index(of: $0) ?? 0 }, error: error,
                                  columnLayout: layout, otherColumnLayouts: layouts, cursorColumn: column)))
        syncSelection()
    }

    var currentBase: VellumStore.QueryPredicate? { (rows as? ResultsRowSource)?.basePredicate }

    /// Where the user is now, to come back to.
    func currentPlace() -> AppState.Place {
        AppState.Place(entityIndex: state.selectedEntity, basePredicate: currentBase, title: state.navigationTitle,
                       filterText: state.filterText, sort: state.sort, selected: selectedID, thenSort: state.thenSort,
                       column: state.columnNames.indices.contains(state.cursorColumn) ? state.columnNames[state.cursorColumn] : nil)
    }

    func goBack() {
        guard let place = state.backStack.last else { return }
        send(.result(.wentBack))
        show(place.entityIndex, base: place.basePredicate, title: place.title, select: place.selected, column: place.column)
    }

    /// Requests to the terminal found while running effects (a yank's clipboard copy),
    /// handed to the loop with the key's own requests.
    var terminalRequests: [TerminalRequest] = []


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
        countRelatedOfSelection()
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

    func activateDetailField(edit: Bool) {
        let fields = detailFields()
        guard fields.indices.contains(state.detailCursor), let object = currentObject() else { return }
        switch fields[state.detailCursor] {
        case .attribute(let a): beginEdit(key: a.name)
        case .relationship(let r): activate(r, of: object, edit: edit)
        }
    }

    /// A relationship field or column activated: `edit` on a to-one opens the picker;
    /// otherwise a to-one goes to its target and a to-many lists its members.
    func activate(_ r: RelationshipDescription, of object: ManagedObject, edit: Bool) {
        switch r {
        case let r where !r.isToMany && edit:
            openPicker(object, r)
        case let r where edit:
            openMembershipPicker(object, r)
        case let r where !r.isToMany:
            guard let target = (try? object.toOne(r.name)) ?? nil,
                  let index = state.entityNames.firstIndex(of: target.entity.name) else {
                send(.status("\(r.name) is empty — e picks one", error: true))
                return
            }
            send(.result(.leftList(currentPlace())))
            show(index, base: nil, title: nil, select: target.objectID)
            send(.status("\(r.name) of \(displayName(object))"))
        default:
            guard let index = state.entityNames.firstIndex(of: r.destination) else { return }
            let base = Self.membership(of: object, in: r)
            send(.result(.leftList(currentPlace())))
            show(index, base: base, title: "\(r.name) of \(displayName(object))")
        }
    }

    /// The filter listing `object`'s destinations of the to-many `relationship`:
    /// its inverse pointing at `object` (`provider == 12`, `ANY tags == 12`), so
    /// objects related later join the list. An unsaved object (no key yet) gets
    /// the members it has now.
    static func membership(of object: ManagedObject, in relationship: RelationshipDescription) -> VellumStore.QueryPredicate {
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
}
