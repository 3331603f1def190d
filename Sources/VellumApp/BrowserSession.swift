import Foundation
import VellumStore
import VellumTerminal

/// The browser without its terminal: the state, the one reducer that writes it,
/// and the `EffectRunner` that carries out the effects against the store.
/// Keys, store events and effect results all reach the state through `send`
/// (the reducer); tests drive it with keys and observe merged background saves.
@MainActor
public final class BrowserSession {
    public private(set) var state = AppState()
    /// The gateway to the store: runs effects and reports back as inputs.
    let runner: EffectRunner
    /// Set when something visible changed; the loop redraws and clears it.
    public var needsRedraw = true {
        didSet { if needsRedraw && !oldValue { onNeedsRedraw?() } }
    }
    /// Wakes the event loop when the state wants a redraw (e.g. after a merged save).
    var onNeedsRedraw: (() -> Void)?
    public static let flashDuration = AppState.flashDuration

    /// `opening`: the entity whose list shows first (else the first entity).
    public init(container: PersistentContainer, layoutFile: ColumnLayoutFile? = nil, settingsFile: BrowserSettingsFile? = nil,
                opening: String? = nil) {
        runner = EffectRunner(container: container, layoutFile: layoutFile, settingsFile: settingsFile)
        runner.session = self
        runner.start(opening: opening)
    }

    public var container: PersistentContainer { runner.container }
    public var context: ManagedObjectContext { runner.context }
    public var rows: RowSource? { runner.rows }
    public var undoStack: UndoStack { runner.undoStack }
    public var entity: Entity? { runner.entity }
    public var entityCounts: [Int] { state.entityCounts }
    public var relatedCounts: RelatedCounts { runner.relatedCounts }

    /// Every input goes through the reducer; the effects it returns are handed to
    /// the runner (store) or returned for the loop (terminal).
    @discardableResult
    public func send(_ input: Input) -> [Effect] {
        Reducer.reduce(&state, input)
    }

    public func setLayout(_ layout: Layout) { send(.layout(layout)) }

    /// What a frame of `layout` shows. The shown rows' to-many columns are counted
    /// first (once per record until a change drops them), so building runs no COUNT.
    public func viewModel(layout: Layout, fileName: String) -> ViewModel {
        let lines = state.tableLines(height: layout.visibleRows)
        runner.countRelatedOfRows(lines)
        let model = ViewModel.build(state: state, layout: layout, fileName: fileName, entity: entity, rows: rows, lines: lines,
                                    entityCounts: entityCounts, relatedCounts: relatedCounts, pendingWrites: runner.pendingWrites)
        // The mouse acts on what was drawn: a header edge is where this frame put it.
        let placed = model.table?.columns.placed ?? []
        if placed != state.placedColumns { send(.columnsPlaced(placed)) }
        return model
    }

    /// The loop says whether "Terminal too small" is shown; keys are ignored while it is.
    public func setTerminalTooSmall(_ tooSmall: Bool) { send(.terminalTooSmall(tooSmall)) }

    /// The selection is a record, not a row number: a key that only moves the
    /// cursor selects the record under it; after anything else (a save may have
    /// moved rows) the cursor follows the selected record.
    /// Returns what the key asks of the terminal (quit, suspend, a theme) for the loop.
    /// A write the key starts runs on the write queue and is not waited for: its
    /// result comes back as inputs (and wakes the loop) when it is done.
    @discardableResult
    func dispatch(_ key: VellumTerminal.Key) async -> [TerminalRequest] {
        runner.applyPendingChange()    // rows another writer moved since the last key
        let effects = send(.key(key))
        needsRedraw = true
        let requests = effects.compactMap(TerminalRequest.init)
        let storeEffects = effects.filter { TerminalRequest($0) == nil }
        guard !storeEffects.isEmpty else { runner.syncSelection(); return requests }
        for effect in storeEffects { await runner.perform(effect) }
        runner.followSelection()
        defer { runner.terminalRequests = [] }
        return requests + runner.terminalRequests
    }

    /// `dispatch`, then waits until the writes the key started have come back
    /// (for callers without a loop, such as tests, that look at the result next).
    @discardableResult
    public func handle(_ key: VellumTerminal.Key) async -> [TerminalRequest] {
        let requests = await dispatch(key)
        await runner.settle()
        return requests
    }

    /// Waits for every write started so far (saved, refused or in conflict).
    public func writesSettled() async { await runner.settle() }

    /// Called by the loop on its tick with its clock; true if a flash or a status
    /// message expired (redraw).
    public func tick(now: Date = Date()) -> Bool {
        let before = (state.flashes.count, state.statusMessage)
        send(.tick(now))
        if state.flashes.count != before.0 || state.statusMessage != before.1 { needsRedraw = true; return true }
        return false
    }

    public func setStatus(_ message: String, error: Bool = false) {
        send(.status(message, error: error))
        needsRedraw = true
    }
}
