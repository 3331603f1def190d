/// The hint lines of the prompts and overlays, made from the keys bound to their
/// commands (`CommandTable.modeKeys`), as the browse hint bar is: a key the user
/// bound is the one named, and a command without a key is left out.
enum ModeHints {
    /// The bottom line in a mode other than browse (nil: the mode has none of its own).
    static func bottomLine(_ s: AppState) -> String? {
        let keys = s.keyMap
        switch s.mode {
        case .filter:
            return keys.hintLine([(["line-confirm"], "apply"), (["line-cancel"], "cancel")]) + "  (empty clears the filter)"
        case .command:
            let usages = CommandTable.lineCommands.map(\.usage).joined(separator: "  ")
            return usages + (keys.firstLabel(for: "complete").map { "  (\($0) completes)" } ?? "")
        case .search:
            return keys.hintLine([(["line-confirm"], s.searchIsRegex ? "find (regex, any case)" : "find (text fields, any case)"),
                                  (["find-regex"], s.searchIsRegex ? "plain text" : "regex"),
                                  (["search-next", "search-previous"], "next/previous"), (["line-cancel"], "cancel")])
        case .summary:
            let on = s.summary?.showsHistogram == true ? "filter on the bin's range" : "filter on the value"
            return keys.hintLine([(["move-down", "move-up"], "move"), (["summary-filter"], on),
                                  (["summary-close"], "close")])
        case .edit:
            // Changed underneath (`editNotice`): Enter asks mine/theirs instead of saving at once.
            let save = s.editNotice == nil ? "save" : "save: asks keep mine or take theirs"
            var parts = [keys.hintLine([(["line-confirm"], save), (["line-cancel"], "cancel")]), "^A/^E ^←/^→ ^U/^K/^W"]
            if s.currentColumnType == .boolean { parts.append(keys.hintLine([(["toggle-boolean"], "toggle")])) }
            parts.append(s.editIsOptional ? "empty = null" : "required")
            return parts.filter { !$0.isEmpty }.joined(separator: "  ")
        case .conflict:
            let back = s.conflict?.replay == nil ? "back to the editor" : "decide later"
            return keys.hintLine([(["keep-mine"], "keep mine"), (["take-theirs"], "take theirs"), (["conflict-back"], back)])
        case .picker where s.picker.isMembership:
            return "type to search  " + keys.hintLine([(["picker-up", "picker-down"], "move"), (["picker-toggle"], "choose/unchoose"),
                                                       (["picker-choose"], "save"), (["picker-cancel"], "cancel")])
        case .picker:
            return "type to search  " + keys.hintLine([(["picker-up", "picker-down"], "choose"), (["picker-choose"], "set"),
                                                       (["picker-cancel"], "cancel")])
        case .confirmDelete:
            let what = s.marked.isEmpty ? "this record" : "the \(s.marked.count) marked records"
            let cascade = s.deleteCascadeCount == 0 ? "" : " and \(s.deleteCascadeCount) more by cascade"
            return "Delete \(what)\(cascade)? \(yes(keys)), any other key = no"
        case .confirmBulkEdit:
            return "Set the column of the \(s.marked.count) marked records? \(yes(keys)) (one undo step), any other key = no"
        case .confirmReplace:
            let no = keys.keys(for: "no").map(KeyName.label)
            return "Replace the existing file? \(yes(keys)), \(no.isEmpty ? "any other key" : no.joined(separator: " or ")) = no (the old file stays)"
        case .messages:
            return keys.hintLine([(["move-down", "move-up"], "scroll"), (["cancel"], "close")])
        case .confirmTracking:
            return s.pendingTracking?.prompt(keys)
        case .pager:
            if s.pager?.searching == true { return keys.hintLine([(["line-confirm"], "search"), (["line-cancel"], "cancel")]) }
            return keys.hintLine([(["move-down", "move-up"], "scroll"), (["page-down", "page-up"], "page"), (["viewer-search"], "search"),
                                  (["viewer-next", "viewer-previous"], "next/previous"), (["viewer-close"], "close")])
        case .duplicate:
            let last = s.duplicatePrompt.map { $0.position == $0.count } ?? true
            return keys.hintLine([(["line-confirm"], last ? "make the copy" : "next value"), (["line-cancel"], "cancel: nothing is written")])
        case .form:
            guard let form = s.form else { return nil }
            if form.confirmingDiscard {
                return "Discard the values typed for the new \(form.entity)? \(yes(keys)), any other key = no (back to the form)"
            }
            let enter = form.current?.isPicked == true ? "pick" : form.cursor == form.fields.count - 1 ? "save" : "next"
            var parts = [keys.hintLine([(["form-next", "form-previous"], "field"), (["form-confirm"], enter), (["form-save"], "save"),
                                        (["form-cancel"], "cancel")])]
            if form.current?.attribute?.type == .boolean { parts.append(keys.hintLine([(["toggle-boolean"], "toggle")])) }
            return parts.filter { !$0.isEmpty }.joined(separator: "  ")
        case .browse, .help, .columnList:
            return nil
        }
    }

    /// "y = yes", or how to get one when the user unbound every key of `yes`.
    static func yes(_ keys: KeyMap) -> String {
        keys.firstLabel(for: "yes").map { "\($0) = yes" } ?? "no key says yes (bind one to 'yes')"
    }

    /// The summary box's bottom edge.
    static func summaryFooter(_ keys: KeyMap) -> String {
        keys.hintLine([(["summary-filter"], "filter"), (["summary-close"], "close")])
    }

    /// The columns list's last line.
    static func columnList(_ keys: KeyMap) -> String {
        keys.hintLine([(["columns-toggle"], "show/hide"), (["move-down", "move-up"], "move"), (["columns-close"], "close")])
    }

    /// The conflict box's last line: what `m` does depends on what met the change.
    static func conflictBox(_ c: AppState.Conflict, _ keys: KeyMap) -> String {
        let keep = c.replay != nil ? "\(c.replay == .undo ? "undo" : "redo") over theirs" : c.deleted ? "re-add with mine" : "keep mine"
        let back = c.replay == nil ? "back to editing" : "decide later"
        return keys.hintLine([(["keep-mine"], keep), (["take-theirs"], "take theirs"), (["conflict-back"], back)], separator: "   ")
    }
}
