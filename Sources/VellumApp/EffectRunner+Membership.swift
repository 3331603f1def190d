import VellumStore

/// `e` on a to-many: the membership picker — every record of the destination, the
/// members checked; Tab toggles, Enter saves the set as one change (one write, one
/// undo step); Esc changes nothing.
extension EffectRunner {
    func openMembershipPicker(_ object: ManagedObject, _ r: RelationshipDescription) {
        let members: [ManagedObject]
        var candidates: [PickerList.Candidate]
        do {
            members = try object.toMany(r.name)
            candidates = try pickerCandidates(of: r.destination)
        } catch {
            send(.status(describe(error), error: true))
            return
        }
        // Members beyond the candidates' limit are listed too: nothing chosen is hidden.
        let listed = Set(candidates.map(\.id))
        candidates += members.filter { !listed.contains($0.objectID) }.map { PickerList.Candidate(id: $0.objectID, name: displayName($0)) }
        let base = Set(members.map(\.objectID))
        membershipTarget = (object.objectID, r.name, base)
        send(.pickerOpened(title: "\(r.name) of \(displayName(object)) → \(r.destination)", candidates: candidates,
                           current: candidates.first { base.contains($0.id) }?.id, chosen: base))
    }

    /// Enter: adds the records chosen and removes the ones unchosen since the picker
    /// opened — those changes only, applied to the membership as it is when the write
    /// runs, so members another writer added or removed meanwhile stay as they made them.
    func saveMembership() {
        guard let target = membershipTarget, let chosen = state.picker.chosen else { send(.result(.backToBrowse)); return }
        send(.result(.backToBrowse))
        membershipTarget = nil
        // Added in the order listed (an ordered to-many keeps it).
        let added = state.picker.candidates.map(\.id).filter { chosen.contains($0) && !target.base.contains($0) }
        let removed = target.base.subtracting(chosen)
        guard !added.isEmpty || !removed.isEmpty else { send(.status("\(target.key) unchanged")); return }
        let what = [added.isEmpty ? nil : "added \(added.count)", removed.isEmpty ? nil : "removed \(removed.count)"].compactMap { $0 }
        write("set \(target.key)", success: "\(target.key): \(what.joined(separator: ", "))", { ctx in
            let o: ManagedObject
            do { o = try ctx.existingObject(with: target.id) } catch StoreError.objectNotFound { throw RecordDeletedMeanwhile.changed(target.id.entityName) }
            let now = Set(try o.toMany(target.key).map(\.objectID))
            for id in removed where now.contains(id) { try o.remove(try ctx.existingObject(with: id), from: target.key) }
            for id in added where !now.contains(id) {
                // A record deleted meanwhile cannot become a member: the others still do.
                guard let member = try? ctx.existingObject(with: id) else { continue }
                try o.add(member, to: target.key)
            }
        }, failed: { [weak self] error in
            guard let self else { return }
            send(.store(.saveFailed("\(target.key) not saved (\(what.joined(separator: ", "))): \(describe(error))")))
        })
    }
}
