import Foundation
import VellumStore
import VellumTerminal

/// What one draw needs: the view model (plain values) and the theme.
struct Frame {
    var model: ViewModel
    var theme: Theme
    var state: AppState { model.state }
    var layout: Layout { model.layout }
}

/// Draws one frame into a cell canvas. Widgets are functions of the view model:
/// nothing here mutates state or reads the store.
@MainActor
enum Renderer {
    static func draw(_ model: ViewModel, theme: Theme, on screen: any CellCanvas) {
        let f = Frame(model: model, theme: theme)
        let t = f.theme
        screen.clear(style: t[.background])
        screen.setCursor(row: nil, col: nil)
        sidebar(f, screen)
        divider(f, screen)
        table(f, screen)
        detail(f, screen)
        statusBar(f, screen)
        bottomLine(f, screen)
        if f.state.mode == .command { completionMenu(f, screen) }
        if f.state.mode == .help { help(f, screen) }
        if f.state.mode == .form || f.state.mode == .picker && f.state.form != nil { form(f, screen) }
        if f.state.mode == .picker { picker(f, screen) }
        if f.state.mode == .conflict { conflict(f, screen) }
        if f.state.mode == .summary { summaryOverlay(f, screen) }
        if f.state.mode == .pager { pager(f, screen) }
        if f.state.mode == .columnList { columnList(f, screen) }
        if f.state.mode == .messages { messages(f, screen) }
        if f.state.mode == .confirmTracking { trackingQuestion(f, screen) }
        screen.refresh()
    }

    /// Like `cellText`, with dates shortened for the table (the detail pane shows them in full).
    static func tableText(_ v: Value) -> String {
        guard case .date = v else { return cellText(v) }
        let iso = v.description                       // 2025-04-19T10:50:21Z
        guard iso.count >= 19 else { return iso }
        let day = String(iso.prefix(10)), time = String(iso.dropFirst(11).prefix(5))
        return iso.dropFirst(11).hasPrefix("00:00:00") ? day : day + " " + time
    }

    /// A value's cell: a keyed archive (a transformable value) decoded when it holds
    /// standard Foundation classes, else with its class and why not (`ArchivedValueText`).
    static func cellText(_ v: Value) -> String {
        if case .data(let d) = v, let archived = ArchivedValueText.displayText(d) { return archived.replacingOccurrences(of: "\n", with: "⏎") }
        return v.isNull ? "∅" : v.description.replacingOccurrences(of: "\n", with: "⏎")
    }

    private static func sidebar(_ f: Frame, _ screen: any CellCanvas) {
        let r = f.layout.sidebar, t = f.theme, s = f.state
        screen.put(row: r.row, col: r.col, text: DisplayWidth.fit(" Entities", toWidth: r.width), style: t[.header])
        for (i, name) in s.entityNames.enumerated() where i + 1 < r.height {
            let count = s.entityCountFailures[i] != nil ? "⚠" : f.model.entityCounts.indices.contains(i) ? String(f.model.entityCounts[i]) : "?"
            let nameWidth = max(1, r.width - DisplayWidth.of(count) - 2)
            let line = " " + DisplayWidth.fit(name, toWidth: nameWidth) + count + " "
            var style = i == s.selectedEntity ? t[.accent] : t[.text]
            if s.focus == .sidebar && i == s.sidebarCursor { style = t[.cursor] }
            screen.put(row: r.row + 1 + i, col: r.col, text: DisplayWidth.fit(line, toWidth: r.width), style: style)
        }
    }

    private static func divider(_ f: Frame, _ screen: any CellCanvas) {
        let r = f.layout.sidebar
        for row in r.row..<(r.row + r.height) {
            screen.put(row: row, col: r.col + r.width, text: "│", style: f.theme[.border])
        }
        let d = f.layout.detail
        if d.col > f.layout.table.col + f.layout.table.width - 1, d.row == 0 {
            for row in d.row..<(d.row + d.height) { screen.put(row: row, col: d.col - 1, text: "│", style: f.theme[.border]) }
        } else {
            screen.put(row: d.row - 1, col: d.col, text: String(repeating: "─", count: d.width), style: f.theme[.border])
        }
    }

    private static func table(_ f: Frame, _ screen: any CellCanvas) {
        let r = f.layout.table, t = f.theme, s = f.state
        guard let table = f.model.table else {
            screen.put(row: r.row + 1, col: r.col + 1, text: "no entity", style: t[.dim])
            return
        }
        // Grouped tables interleave section header lines with the rows.
        let lines = table.lines
        let cells = table.rows.map(\.cells)
        let placed = table.columns.placed
        // Header with sort marker.
        screen.fill(row: r.row, col: r.col, width: r.width, style: t[.header])
        for column in placed {
            let c = column.column
            var title = column.name
            // A relationship column shows the mark of the key it sorts by (`provider.name`, `images.@count`).
            let path = s.sortKeyPath(ofColumn: title)
            if let sort = s.sort ?? table.effectiveSort, sort.keyPath == path { title += sort.ascending ? " ▲" : " ▼" }
            title += SortMarks.position(of: path, in: s.sortDescriptors)
            let style = c == s.cursorColumn ? t[.header].adding(.underline) : t[.header]
            screen.put(row: r.row, col: column.x, text: DisplayWidth.fit(title, toWidth: column.width), style: style,
                       maxWidth: r.col + r.width - column.x)
        }
        if table.rowCount == 0 {
            screen.put(row: r.row + 1, col: r.col + 1, text: s.filterText.isEmpty ? "no \(table.entityName) records — a adds one" : "no records match the filter", style: t[.dim])
        }
        for (line, entry) in lines.enumerated() {
            let text: String, style: Style
            switch entry {
            case .row: continue
            case .header(let title): text = "▾ " + title; style = t[.dim]
            case .folded(let title, let row):
                text = "▸ " + title
                style = row == s.cursorRow ? (s.focus == .table ? t[.selection] : t[.text].adding(.bold)) : t[.dim]
            }
            screen.fill(row: r.row + 1 + line, col: r.col, width: r.width, style: style)
            screen.put(row: r.row + 1 + line, col: r.col, text: text, style: style.adding(.bold), maxWidth: r.width)
        }
        let rowLines = lines.enumerated().compactMap { i, l -> Int? in if case .row = l { return i } else { return nil } }
        for (n, row) in table.rows.enumerated() {
            let line = rowLines[n]
            let y = r.row + 1 + line
            let selected = row.index == s.cursorRow
            var rowStyle = row.flashing ? t[.highlight] : t[.text]
            if selected { rowStyle = s.focus == .table ? t[.selection] : t[.text].adding(.bold) }
            screen.fill(row: y, col: r.col, width: r.width, style: rowStyle)
            // A marked row shows a bullet on the divider left of it, over no value.
            if row.marked, r.col > 0 { screen.put(row: y, col: r.col - 1, text: "•", style: t[.accent].adding(.bold)) }
            for column in placed {
                let c = column.column, x = column.x
                let style = selected && c == s.cursorColumn && s.focus == .table ? t[.cursor] : rowStyle
                let align: TextAlignment = (s.columnTypes.indices.contains(c) && s.columnTypes[c].isNumeric) ? .right : .left
                // A column cut by the table edge is fitted to what shows, so right-aligned
                // values are not pushed past the edge.
                let shown = column.shown(before: r.col + r.width)
                screen.put(row: y, col: x, text: DisplayWidth.fit(cells[n][c], toWidth: shown, alignment: align), style: style, maxWidth: shown)
                if let found = row.found, found.column == c, align == .left, s.mode != .edit {
                    foundMark(found.characters, of: cells[n][c], at: x, row: y, width: shown, style: t[.highlight].adding(.bold), screen)
                }
            }
            if selected && s.mode == .edit {
                // Inline editor over the cell, extended to the table edge.
                let cx = placed.first { $0.column == s.cursorColumn }?.x ?? r.col
                let w = max(8, r.col + r.width - cx)
                editorLine(s.editor, row: y, col: cx, width: w, style: t[.cursor], screen)
            }
        }
    }

    /// What a find matched in a left-aligned cell, drawn over it in `style`, as far as the cell shows.
    private static func foundMark(_ characters: Range<Int>, of text: String, at x: Int, row y: Int, width: Int,
                                  style: Style, _ screen: any CellCanvas) {
        let chars = Array(text)
        guard characters.lowerBound < chars.count else { return }
        let start = DisplayWidth.of(String(chars[..<characters.lowerBound]))
        let room = width - start - (DisplayWidth.of(text) > width ? 1 : 0)   // the ellipsis stays
        guard room > 0 else { return }
        let part = String(chars[characters.lowerBound..<min(characters.upperBound, chars.count)])
        screen.put(row: y, col: x + start, text: DisplayWidth.truncate(part, toWidth: room, ellipsis: ""), style: style, maxWidth: room)
    }

    /// Draws a line editor, scrolled so the cursor is visible, and places the terminal cursor.
    static func editorLine(_ editor: LineEditor, row: Int, col: Int, width: Int, style: Style, _ screen: any CellCanvas) {
        var chars = editor.characters[...]
        var cursorCol = editor.cursorColumn
        while cursorCol >= width, !chars.isEmpty {
            cursorCol -= DisplayWidth.of(chars.removeFirst())
        }
        screen.fill(row: row, col: col, width: width, style: style)
        // A suggestion shows as selected: typing replaces it.
        screen.put(row: row, col: col, text: String(chars), style: editor.isSuggestion ? style.adding(.reverse) : style, maxWidth: width)
        screen.setCursor(row: row, col: col + max(0, cursorCol))
    }

    private static func detail(_ f: Frame, _ screen: any CellCanvas) {
        let r = f.layout.detail, t = f.theme, s = f.state
        guard !r.isEmpty, let detail = f.model.detail else { return }
        screen.put(row: r.row, col: r.col + 1, text: DisplayWidth.fit(detail.title, toWidth: r.width - 1), style: t[.header])
        let lines = detail.fields.map { ($0.name, $0.value, $0.isRelationship ? t[.accent] : t[.text]) }
        let keyWidth = min(14, (lines.map { DisplayWidth.of($0.0) }.max() ?? 4) + 1)
        for (i, line) in lines.enumerated() where i + 1 < r.height {
            let focused = s.focus == .detail && i == s.detailCursor
            if focused { screen.fill(row: r.row + 1 + i, col: r.col, width: r.width, style: t[.selection]) }
            screen.put(row: r.row + 1 + i, col: r.col + 1, text: DisplayWidth.fit(line.0, toWidth: keyWidth), style: focused ? t[.selection] : t[.dim])
            // A value longer than the pane ends in "…" (`v` shows it whole).
            let room = r.width - keyWidth - 2
            screen.put(row: r.row + 1 + i, col: r.col + 2 + keyWidth, text: DisplayWidth.truncate(line.1, toWidth: room),
                       style: focused ? t[.selection] : line.2, maxWidth: room)
        }
        if s.focus == .detail, s.mode == .browse, r.height > lines.count + 2 {
            screen.put(row: r.row + r.height - 1, col: r.col + 1, text: s.keyMap.hintLine(CommandTable.detailHint), style: t[.dim], maxWidth: r.width - 1)
        }
    }

    private static func statusBar(_ f: Frame, _ screen: any CellCanvas) {
        let r = f.layout.status, t = f.theme, s = f.state
        screen.fill(row: r.row, col: r.col, width: r.width, style: t[.status])
        if s.mode == .filter || s.mode == .command || s.mode == .search || s.mode == .duplicate {
            let prompt = s.mode == .filter ? "/" : s.mode == .search ? (s.searchIsRegex ? "find regex: " : "find: ")
                : s.mode == .duplicate ? (s.duplicatePrompt?.label ?? "") : ":"
            screen.put(row: r.row, col: 0, text: prompt, style: t[.statusText])
            let w = DisplayWidth.of(prompt)
            editorLine(s.editor, row: r.row, col: w, width: r.width - w, style: t[.status], screen)
            return
        }
        if s.statusKind == .welcome, let welcome = s.statusMessage {
            // The demo's first line says what to try, then the live marker as it fits;
            // the list facts show again at the first key.
            let x = screen.put(row: r.row, col: 1, text: welcome + " ", style: t[.warning], maxWidth: r.width - 2)
            let room = r.width - x - 3
            if let live = [liveMarker(s), "● live"].first(where: { DisplayWidth.of($0) <= room }) {
                screen.put(row: r.row, col: x + 2, text: live, style: t[.statusText], maxWidth: room)
            }
            return
        }
        var parts = [f.model.fileName, (s.currentEntityName ?? "-") + (s.navigationTitle.map { " (\($0))" } ?? "")]
        parts.append(f.model.table.map { $0.rowCount == 0 ? "row 0/0" : "row \(s.cursorRow + 1)/\($0.rowCount)" } ?? "")
        if !s.marked.isEmpty { parts.append("\(s.marked.count) marked") }
        if !s.filterText.isEmpty { parts.append("filter: \(s.filterText)") }
        if !s.sortDescriptors.isEmpty { parts.append("sort: " + SortMarks.summary(s.sortDescriptors)) }
        if case let hidden = s.allColumnNames.count - s.columnNames.count, hidden > 0 { parts.append("\(hidden) hidden (C)") }
        parts.append(liveMarker(s))
        if f.model.pendingWrites > 0 { parts.append("writes: \(f.model.pendingWrites)") }
        // Work running off the main thread is named until it ends, even once a newer message went.
        let message = s.editError ?? (s.mode == .edit ? s.editNotice : nil) ?? s.statusMessage
            ?? s.runningWork.map { $0 + Reducer.cancelHint }
        // The store's name gives way first (a PostgreSQL URL or a deep path can fill the
        // line): shortened in the middle, so the live marker and the message stay visible.
        let room = r.width - 2 - (message.map { DisplayWidth.of($0) + 4 } ?? 0)
        let overflow = DisplayWidth.of(parts.joined(separator: " │ ")) - room
        if overflow > 0 { parts[0] = shortenedInTheMiddle(parts[0], toWidth: max(12, DisplayWidth.of(parts[0]) - overflow)) }
        var info = parts.joined(separator: " │ ")
        if message != nil, DisplayWidth.of(info) > room {
            // The message is what just happened: it takes the room of the list facts'
            // tail (filter, sort…), never of the file, entity and row.
            let kept = parts.prefix(3).joined(separator: " │ ")
            info = room > DisplayWidth.of(kept) + 4 ? DisplayWidth.truncate(info, toWidth: room) : kept
        }
        let x = screen.put(row: r.row, col: 1, text: info, style: t[.statusText], maxWidth: r.width - 2)
        if let message {
            let style = (s.editError != nil || s.statusIsError) ? t[.error] : t[.warning]
            // (An edit notice is a warning: the editor still holds the typed text.)
            screen.put(row: r.row, col: x + 2, text: " " + message + " ", style: style, maxWidth: r.width - x - 2)
        }
    }

    /// "● live", with who wrote last from outside and when.
    static func liveMarker(_ s: AppState) -> String {
        var live = "● live"
        if let writer = s.lastWriter, let date = s.lastWriteDate { live += " · \(writer) \(timeString(date))" }
        else if let change = s.lastChange { live += " " + timeString(change) }
        return live
    }

    /// `text` cut to `width` columns by replacing its middle with "…": both the start
    /// (`postgresql://`, the folder) and the end (the file, `schema=`) stay readable.
    static func shortenedInTheMiddle(_ text: String, toWidth width: Int) -> String {
        guard DisplayWidth.of(text) > width, width > 1 else { return text }
        let tail = (width - 1) / 2
        let end = String(DisplayWidth.truncate(String(text.reversed()), toWidth: tail, ellipsis: "").reversed())
        return DisplayWidth.truncate(text, toWidth: width - 1 - DisplayWidth.of(end), ellipsis: "") + "…" + end
    }

    /// The hint line: the reason a `/` or `:` line was refused, else the mode's
    /// hint (`ModeHints`), else the browse hint bar, all made from the bound keys.
    private static func bottomLine(_ f: Frame, _ screen: any CellCanvas) {
        let r = f.layout.hints, t = f.theme, s = f.state
        if s.mode == .filter, let error = s.filterError {
            let caret = String(repeating: " ", count: 1 + DisplayWidth.of(String(s.editor.characters.prefix(error.position)))) + "^ "
            screen.put(row: r.row, col: 0, text: caret + error.description, style: t[.error], maxWidth: r.width)
            return
        }
        if s.mode == .filter || s.mode == .command || s.mode == .search || s.mode == .duplicate, let refused = s.promptError {
            screen.put(row: r.row, col: 0, text: " " + refused, style: t[.error], maxWidth: r.width)
            return
        }
        let asks = [.conflict, .confirmDelete, .confirmBulkEdit, .confirmReplace, .confirmTracking].contains(s.mode)
        screen.put(row: r.row, col: 0, text: " " + (ModeHints.bottomLine(s) ?? s.keyMap.hint(width: r.width - 1)), style: asks ? t[.warning] : t[.dim], maxWidth: r.width)
    }

    private static func help(_ f: Frame, _ screen: any CellCanvas) {
        let overlay = HelpOverlay(size: screen.size, keyMap: f.state.keyMap), r = overlay.box
        let style = f.theme[.text].adding(.reverse)
        screen.fill(row: r.row, col: r.col, width: r.width, height: r.height, style: style)
        for column in 0..<overlay.columns {
            for (y, line) in overlay.visibleLines(column: column, scroll: f.state.helpScroll).enumerated() {
                screen.put(row: r.row + 1 + y, col: r.col + overlay.columnOffset(column), text: line, style: style, maxWidth: overlay.columnWidth)
            }
        }
        screen.put(row: r.row + r.height - 1, col: r.col + 2, text: overlay.footer(scroll: f.state.helpScroll),
                   style: style.adding(.bold), maxWidth: r.width - 4)
    }

    private static func messages(_ f: Frame, _ screen: any CellCanvas) {
        let s = f.state, overlay = MessagesOverlay(size: screen.size, messages: s.messages), r = overlay.box
        let style = f.theme[.text]
        box(screen, top: r.row, left: r.col, width: r.width, height: r.height, style: f.theme[.border])
        screen.fill(row: r.row + 1, col: r.col + 1, width: r.width - 2, height: r.height - 2, style: style)
        screen.put(row: r.row + 1, col: r.col + 2, text: overlay.title(count: s.messages.count), style: f.theme[.header], maxWidth: r.width - 4)
        for (y, line) in overlay.visibleLines(scroll: s.messagesScroll).enumerated() {
            let error = line.dropFirst(8).hasPrefix(" error ")
            screen.put(row: r.row + 2 + y, col: r.col + 2, text: line, style: error ? f.theme[.error] : style, maxWidth: r.width - 4)
        }
        screen.put(row: r.row + r.height - 2, col: r.col + 2, text: overlay.footer(scroll: s.messagesScroll, keys: s.keyMap),
                   style: f.theme[.dim], maxWidth: r.width - 4)
    }

    /// `:track`/`:track off`: every name that would be added or removed, in a box above the question.
    private static func trackingQuestion(_ f: Frame, _ screen: any CellCanvas) {
        guard let q = f.state.pendingTracking else { return }
        let (r, lines) = q.overlay(size: screen.size)
        box(screen, top: r.row, left: r.col, width: r.width, height: r.height, style: f.theme[.border])
        screen.fill(row: r.row + 1, col: r.col + 1, width: r.width - 2, height: r.height - 2, style: f.theme[.text])
        screen.put(row: r.row + 1, col: r.col + 2, text: q.title, style: f.theme[.header], maxWidth: r.width - 4)
        for (y, line) in lines.enumerated() {
            screen.put(row: r.row + 2 + y, col: r.col + 3, text: line, style: f.theme[.text], maxWidth: r.width - 5)
        }
    }

    /// A framed, filled rectangle (the overlays' frame).
    static func box(_ screen: any CellCanvas, top: Int, left: Int, width: Int, height: Int, style: Style) {
        screen.fill(row: top, col: left, width: width, height: height, style: style)
        screen.put(row: top, col: left, text: "┌" + String(repeating: "─", count: max(0, width - 2)) + "┐", style: style)
        for y in (top + 1)..<max(top + 1, top + height - 1) {
            screen.put(row: y, col: left, text: "│", style: style)
            screen.put(row: y, col: left + width - 1, text: "│", style: style)
        }
        screen.put(row: top + height - 1, col: left, text: "└" + String(repeating: "─", count: max(0, width - 2)) + "┘", style: style)
    }

    private static func conflict(_ f: Frame, _ screen: any CellCanvas) {
        guard let c = f.state.conflict else { return }
        let size = screen.size
        let width = min(size.columns - 4, 70), height = 8
        let top = max(0, (size.rows - height) / 2), left = max(0, (size.columns - width) / 2)
        let style = f.theme[.text].adding(.reverse)
        box(screen, top: top, left: left, width: width, height: height, style: style)
        let who = c.author.map { " by \($0)" } ?? " by another writer"
        let title = c.deleted ? "Conflict: this record was deleted\(who)" : "Conflict: \(c.key) was changed\(who)"
        screen.put(row: top + 1, col: left + 2, text: title, style: f.theme[.error], maxWidth: width - 4)
        screen.put(row: top + 3, col: left + 2, text: "mine:   " + c.mine, style: style, maxWidth: width - 4)
        screen.put(row: top + 4, col: left + 2, text: "theirs: " + (c.deleted ? "(deleted)" : c.theirs ?? "∅"), style: style, maxWidth: width - 4)
        screen.put(row: top + 6, col: left + 2, text: ModeHints.conflictBox(c, f.state.keyMap), style: style, maxWidth: width - 4)
    }

    private static func picker(_ f: Frame, _ screen: any CellCanvas) {
        let s = f.state, size = screen.size
        let width = min(size.columns - 4, 60), height = min(size.rows - 4, 20)
        let top = max(0, (size.rows - height) / 2), left = max(0, (size.columns - width) / 2)
        let style = f.theme[.text]
        box(screen, top: top, left: left, width: width, height: height, style: f.theme[.border])
        screen.fill(row: top + 1, col: left + 1, width: width - 2, height: height - 2, style: style)
        screen.put(row: top + 1, col: left + 2, text: s.pickerTitle, style: f.theme[.header], maxWidth: width - 4)
        screen.put(row: top + 2, col: left + 2, text: "search: ", style: f.theme[.dim])
        let listHeight = max(1, height - 5)
        let first = max(0, min(s.pickerCursor - listHeight / 2, s.pickerItems.count - listHeight))
        for (line, i) in (first..<min(s.pickerItems.count, first + listHeight)).enumerated() {
            let st = i == s.pickerCursor ? f.theme[.selection] : style
            screen.fill(row: top + 3 + line, col: left + 1, width: width - 2, style: st)
            let mark = s.picker.chosen.map { chosen in s.picker.shown[i].map { chosen.contains($0) } == true ? "[x] " : "[ ] " } ?? ""
            screen.put(row: top + 3 + line, col: left + 2, text: mark + s.pickerItems[i], style: st, maxWidth: width - 4)
        }
        if s.picker.isMembership {
            let tally = " \(s.picker.tally) "
            screen.put(row: top + height - 1, col: left + max(2, width - 2 - DisplayWidth.of(tally)), text: tally, style: f.theme[.border], maxWidth: width - 4)
        }
        editorLine(s.editor, row: top + 2, col: left + 10, width: width - 12, style: style, screen)
    }

    static func timeString(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}

extension Style {
    func adding(_ a: TextAttributes) -> Style {
        var s = self
        s.attributes.insert(a)
        return s
    }
}
