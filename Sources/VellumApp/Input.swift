import Foundation
import VellumStore
import VellumTerminal

/// Everything that reaches the browser's one loop: keys, store events, the clock
/// and the terminal. `Reducer.reduce` turns each into the next state and effects.
public enum Input: Sendable, Equatable {
    case key(VellumTerminal.Key)
    case store(StoreEvent)
    /// The loop's clock: flashes that ran out stop, an informational status that
    /// has shown long enough goes (`StatusKind`), new `messages` get their time.
    case tick(Date)
    /// The panels as drawn (the table's height is the page size).
    case layout(Layout)
    /// Where a frame drew the table's columns (sent when it changes).
    case columnsPlaced([ColumnPlacement.Placed])
    /// Whether "Terminal too small" is shown (keys are ignored while it is).
    case terminalTooSmall(Bool)
    /// A theme was loaded (`error`: why the asked-for one was not, and this is the fallback).
    /// The status says so, except a start-up theme that loaded (`quietly`).
    case themeLoaded(name: String, error: String?, quietly: Bool = false)
    /// The to-one picker opened over these candidates, on the current target if any.
    case pickerOpened(title: String, candidates: [PickerList.Candidate], current: ObjectID?, chosen: Set<ObjectID>? = nil)
    /// A list was opened (effect result).
    case listShown(ListShown)
    /// The open list's rows moved or changed (effect result, store event).
    case rowsChanged(RowsChanged)
    /// The key bindings: the command table's defaults with the user's bindings file applied.
    case keyMapLoaded(KeyMap)
    /// The browser's settings as the user left them (`BrowserSettingsFile`).
    case settingsLoaded(BrowserSettings)
    /// Whether the browser starts with the mouse captured (`--no-mouse` says no).
    case mouseCaptureStarted(Bool)
    /// What an effect found in the store (the runner reports it; only the reducer writes the state).
    case result(EffectResult)
    /// A message for the status line from outside the reducer (opening notices).
    case status(String, error: Bool = false)
    /// `vellum demo`'s first status line: the keys to try (as bound), then `live`, what
    /// changes by itself. It stays until the first key.
    case welcome(live: String)
}
