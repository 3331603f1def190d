import Foundation

/// The one entry point of the loop: every input that changes what the browser
/// shows goes through here, keys and store events alike.
extension Reducer {
    public static func reduce(_ state: inout AppState, _ input: Input) -> [Effect] {
        switch input {
        case .key(let key): return update(&state, key: key)
        case .store(let event): apply(event, to: &state)
        case .tick(let now):
            _ = state.expireFlashes(now: now)
            clockTicked(&state, now)
        case .columnsPlaced(let placed): state.placedColumns = placed
        case .layout(let layout):
            state.layout = layout
            state.pageSize = max(1, layout.visibleRows)
            state.pager?.fit(width: PagerOverlay(size: layout.size).textWidth)
            state.clamp()
        case .terminalTooSmall(let tooSmall):
            guard tooSmall != state.terminalTooSmall else { break }
            state.terminalTooSmall = tooSmall
            state.ignoredKeys = 0
        case .themeLoaded(let name, let error, let quietly):
            state.themeName = name
            if let error { state.setStatus("theme: \(error) — using \(name)", error: true) }
            else if !quietly { state.setStatus("theme \(name)") }
        case .status(let message, let error): state.setStatus(message, error: error)
        case .welcome(let live): state.setStatus(welcome(state.keyMap, live: live), kind: .welcome)
        case .keyMapLoaded(let map): state.keyMap = map
        case .settingsLoaded(let settings):
            let range = Layout.detailStepRange
            state.detailSteps = min(range.upperBound, max(range.lowerBound, settings.detailSteps ?? 0))
            if let size = state.layout?.size { _ = reduce(&state, .layout(Layout(size: size, detailSteps: state.detailSteps))) }
        case .mouseCaptureStarted(let on): state.mouseCapture = on
        case .result(let result): apply(result, to: &state)
        case .listShown(let list): show(list, in: &state)
        case .rowsChanged(let rows):
            if let row = rows.selectedRow { state.cursorRow = row }
            state.rowCount = rows.rowCount
            state.sectionHeaders = rows.sectionHeaders
            state.clamp()
        case .pickerOpened(let title, let candidates, let current, let chosen):
            state.pickerTitle = title
            state.editor = LineEditor()
            state.mode = .picker
            state.picker = PickerList(candidates: candidates, chosen: chosen)
            state.pickerCursor = current.flatMap { state.picker.shown.firstIndex(of: $0) } ?? 0
        }
        return []
    }

    private static func show(_ list: ListShown, in state: inout AppState) {
        state.selectedEntity = list.entityIndex
        state.sidebarCursor = list.entityIndex
        state.navigationTitle = list.title
        adoptColumns(list, in: &state)
        state.jumps = JumpList()
        state.detailFieldCount = list.detailFieldCount
        state.detailCursor = 0
        state.groupKey = nil
        state.sectionAggregate = nil
        state.sectionFigures = [:]
        state.sectionHeaders = [:]
        state.collapsedSections = []
        state.rowCount = list.rowCount
        if let error = list.error { state.setStatus(error, error: true) }
        if let row = list.cursorRow { state.cursorRow = row }
        state.clamp()
    }

    private static func apply(_ event: StoreEvent, to state: inout AppState) {
        switch event {
        case .changedElsewhere(let ids, let at):
            let until = at.addingTimeInterval(AppState.flashDuration)
            for id in ids { state.flashes[id] = until }
            state.lastChange = at
        case .remoteWriter(let author, let at):
            state.lastWriter = author ?? "another process"
            state.lastWriteDate = at
        case .counted(let counts):
            for (i, n) in counts where i >= 0 {
                if state.entityCounts.count <= i { state.entityCounts += Array(repeating: 0, count: i + 1 - state.entityCounts.count) }
                state.entityCounts[i] = n
                state.entityCountFailures[i] = nil
            }
        case .countFailed(let failures):
            for (i, reason) in failures where state.entityNames.indices.contains(i) {
                if state.entityCounts.count <= i { state.entityCounts += Array(repeating: 0, count: i + 1 - state.entityCounts.count) }
                state.entityCountFailures[i] = reason
            }
            if let (i, reason) = failures.filter({ state.entityNames.indices.contains($0.key) }).min(by: { $0.key < $1.key }) {
                let more = failures.count > 1 ? " (and \(failures.count - 1) more entities)" : ""
                state.setStatus("\(state.entityNames[i]) not counted: \(reason)\(more)", error: true)
            }
        case .countsChanged(let deltas):
            for (i, n) in deltas where state.entityCounts.indices.contains(i) {
                state.entityCounts[i] = max(0, state.entityCounts[i] + n)
            }
        case .saved(let message): state.setStatus(message)
        case .saveFailed(let reason): state.setStatus(reason, error: true)
        case .mergeFailed(let reason): state.setStatus("merge failed: \(reason)", error: true)
        }
    }
}
