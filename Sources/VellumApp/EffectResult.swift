import VellumStore

/// What running an effect against the store found, fed back to the reducer as an
/// input (`Input.result`): the `EffectRunner` reads the state but never writes it.
public enum EffectResult: Sendable, Equatable {
    /// The store is open: the entities listed in the sidebar and the themes `:theme` offers.
    case storeOpened(entityNames: [String], themeNames: [String])
    /// Another list is about to show: `place` (if any) goes on the back stack, and the
    /// new list starts unfiltered, unsorted, at the top.
    case leftList(AppState.Place?)
    /// Backspace: the last place comes off the back stack with its filter and sort.
    case wentBack
    /// The editor opened on a field holding `text`; `hint` says how to type the value.
    case editBegan(text: String, isOptional: Bool, hint: String?)
    /// The editor stays open (with the typed text) and says why it was not saved.
    case editRefused(String)
    /// `D`: the copy needs a new value of a unique attribute; the line opens on `prompt`.
    case duplicateAsks(DuplicatePrompt)
    /// A write of the editor's text failed: the editor opens again with it and the reason.
    case editReopened(text: String, reason: String)
    /// Another writer changed or deleted what an edit, undo or redo was about to write.
    case conflictFound(AppState.Conflict)
    /// Another writer changed or deleted the field being edited: the editor stays open and says so.
    case editTargetChanged(String)
    /// An editor, conflict prompt or picker is done (saved, resolved or refused).
    case backToBrowse
    /// `a`/`A`: the new record's form opens.
    case formOpened(RecordForm)
    /// The form's save was refused: it stays open with the reason, at `field` when one is named.
    case formRefused(String, field: String?)
    /// The form's record was saved: the form closes.
    case formSaved
    /// `v`: the viewer opens on a value.
    case pagerOpened(PagerDocument)
    /// `F`: the column summary overlay.
    case summaryOpened(SummaryOverlay)
    /// `:id` found the record in the open list, at `row`.
    case jumpedToRow(Int)
    /// A text search found the row; the column of the cell it found (when shown) and the cell to mark.
    case found(row: Int, column: Int? = nil, cell: FoundCell? = nil)
    /// `:group KEY sum(price)`: each section's figure, by section name.
    case sectionFigures([String: String])
    /// `:group` failed; the grouping stays as it was.
    case groupRestored(String?, SectionAggregate?)
    /// `:export` to an existing file waits for a yes.
    case exportNeedsConfirmation(PendingExport)
    /// `:track`/`:track off` waits for a yes, naming what it would change.
    case trackingNeedsConfirmation(TrackingQuestion)
    /// A yank's text (kept as the register); `what` says what was copied.
    case yanked(text: String, what: String)
    /// What deleting would do, counted for the open "delete?" question (or why it would be refused).
    case deletionPreviewed(DeletionQuestion)
    /// The marked records are now these.
    case marksChanged(Set<ObjectID>)
    /// Long store work runs off the main thread (`doing`: "sorting", "summarizing"); Esc or
    /// Ctrl-C cancels it. The list shows and takes keys meanwhile (a prompt it was typed in
    /// closes, to come back if it is refused).
    case workStarted(String)
    /// The long work ended (done, refused or cancelled); its result follows.
    case workEnded
    /// The list now shows this filter and sort; `atTop` when the selected record left it.
    case queryApplied(filter: String, sort: VellumStore.QuerySortDescriptor?, atTop: Bool, thenBy: [VellumStore.QuerySortDescriptor] = [])
    /// The filter or sort was refused (`cancelled`: the user stopped it); the list is unchanged.
    case queryRefused(String, what: String, cancelled: Bool)
}
