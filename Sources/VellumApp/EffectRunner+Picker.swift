import Foundation
import VellumStore

/// The to-one picker: candidates, and setting the relationship to the chosen one.
extension EffectRunner {
    func openPicker(_ object: ManagedObject, _ r: RelationshipDescription) {
        guard let target = container.model.entity(named: r.destination) else { return }
        let candidates: [PickerList.Candidate]
        do { candidates = try pickerCandidates(of: target.name) } catch {
            send(.status(describe(error), error: true))
            return
        }
        let current = ((try? object.toOne(r.name)) ?? nil)?.objectID
        pickerTarget = (object.objectID, r.name, target.name, current)
        send(.pickerOpened(title: "\(r.name) of \(displayName(object)) → \(target.name)",
                           candidates: candidates, current: current))
    }

    /// The records of `entityName` a picker offers, in the order of the names it shows
    /// (the chosen display key's, else name/title); at most 2,000.
    func pickerCandidates(of entityName: String) throws -> [PickerList.Candidate] {
        guard let target = container.model.entity(named: entityName) else { throw StoreError.unknownEntity(entityName) }
        var request = FetchRequest(entityName: target.name)
        if let key = DisplayName.sortKey(of: target, chosen: state.displayKey(of: target.name)) {
            request.sortDescriptors = [VellumStore.QuerySortDescriptor(key)]
        } else if let sort = ResultsRowSource.defaultSort(for: target) { request.sortDescriptors = [sort] }
        request.fetchLimit = 2000
        return try context.fetch(request).map { PickerList.Candidate(id: $0.objectID, name: displayName($0)) }
    }

    func choosePicked() {
        let shown = state.picker.shown
        guard let target = pickerTarget, shown.indices.contains(state.pickerCursor) else { send(.result(.backToBrowse)); return }
        guard shown.count > 1 || state.editor.text.isEmpty else {
            send(.status("no \(target.entity) matches '\(state.editor.text)' — change the search, or Esc", error: true))
            return
        }
        let chosen = shown[state.pickerCursor]
        let name = chosen.flatMap(state.picker.name(of:))
        // Another writer changed or deleted the relationship while the picker was open:
        // say what it is now and let the user choose again, knowingly.
        guard let object = context.registeredObject(for: target.id), !object.isDeleted, (try? object.fireFault()) != nil else {
            send(.result(.backToBrowse))
            pickerTarget = nil
            send(.status("not set: this \(target.id.entityName) was deleted by another writer", error: true))
            return
        }
        let now = ((try? object.toOne(target.key)) ?? nil)
        if now?.objectID != target.base {
            pickerTarget?.base = now?.objectID
            let theirs = now.map { displayName($0) } ?? "∅"
            send(.status("\(target.key) is now \(theirs) (another writer) — Enter: yours, Esc: theirs", error: true))
            return
        }
        send(.result(.backToBrowse))
        pickerTarget = nil
        write("set \(target.key)", success: name.map { "\(target.key) = \($0)" } ?? "\(target.key) cleared", { ctx in
            let o = try ctx.existingObject(with: target.id)
            // Changed by another writer since the check above: not over it, unseen.
            guard try o.toOne(target.key)?.objectID == target.base else { throw ChangedUnderneath(theirs: nil) }
            try o.setToOne(target.key, try chosen.map { try ctx.existingObject(with: $0) })
        }, failed: { [weak self] error in
            guard let self else { return }
            let reason = error is ChangedUnderneath ? "another writer changed it meanwhile; e picks again" : describe(error)
            send(.store(.saveFailed("\(target.key) not set: \(reason)")))
        })
    }
}
