import Foundation
import Testing
@testable import VellumApp
@testable import VellumStore
import VellumTerminal

/// One command table drives keys, `:` commands, completion, help and the hint bar;
/// a user's bindings file changes the keys of all of them at once.
@Suite struct CommandTableTests {
    func state(_ keys: KeyMap = .defaults) -> AppState {
        var s = AppState()
        s.entityNames = ["Product", "Task"]
        s.columnNames = ["name", "price"]
        s.themeNames = ["default", "dark", "light"]
        s.rowCount = 10
        s.keyMap = keys
        return s
    }

    @Test func everyKeyActionIsOneNamedCommandWithADefaultKey() {
        let names = CommandTable.all.map(\.name)
        #expect(Set(names).count == names.count)
        for action in KeyAction.allCases {
            let commands = CommandTable.all.filter { $0.action == action }
            #expect(commands.count == 1, "\(action)")
            #expect(commands.first.map { !$0.defaultKeys.isEmpty } == true, "\(action)")
        }
        let typed = CommandTable.typedNames
        #expect(Set(typed).count == typed.count)
        #expect(typed == ["display", "export", "filter", "goto", "group", "id", "messages", "mouse", "q", "quit", "set", "sort", "theme", "track", "yank"])
    }

    @Test func theHintBarIsMadeFromTheBoundKeys() {
        #expect(KeyMap.defaults.hint == "j/k move  h/l column  Tab focus  Enter open/edit  / filter  s/S sort  F summary  f find  a add  d delete  u undo  : cmd  ? help  q quit")
        var keys = KeyMap.defaults
        keys.bind(.char("x"), to: "undo")
        // The user's key is named even while the default still works.
        #expect(keys.hint.contains("x undo") && !keys.hint.contains("u undo"))
        keys.unbind(.char("u"))
        keys.unbind(.char("q"))
        #expect(keys.hint.contains("x undo") && keys.hint.hasSuffix("^C quit"))
        keys.unbind(.char("a"))
        #expect(!keys.hint.contains("add"))
    }

    /// The prompts' and overlays' keys were a hand-kept list beside hand-written hint
    /// strings, and could not be rebound; now they are commands of their mode.
    @Test func aModeKeyRebindsBehaviourAndHintTogether() {
        let file = BindingsFile.parse("bind x keep-mine\nbind ^S line-confirm\nunbind q summary\nbind z yes\nunbind y question\n", path: "/k")
        #expect(file.problems == [])
        let keys = file.keyMap
        // Conflict: x keeps mine (m still does), and the hint says x.
        var s = state(keys)
        s.mode = .conflict
        s.conflict = AppState.Conflict(key: "price", mine: "1", theirs: "2", deleted: false, author: nil)
        #expect(Reducer.update(&s, key: .char("x")) == [.resolveConflict(keepMine: true)])
        #expect(Reducer.update(&s, key: .char("m")) == [.resolveConflict(keepMine: true)])
        #expect(ModeHints.bottomLine(s) == "x keep mine  t take theirs  Esc back to the editor")
        #expect(ModeHints.bottomLine(state()) == nil)
        var defaults = s
        defaults.keyMap = .defaults
        #expect(ModeHints.bottomLine(defaults) == "m keep mine  t take theirs  Esc back to the editor")
        // The `/` line: ^S applies, and the hint names it; x is still text there.
        s = state(keys)
        _ = Reducer.update(&s, key: .char("/"))
        for c in "price > 1x" { _ = Reducer.update(&s, key: .char(c)) }
        #expect(s.editor.text == "price > 1x" && s.mode == .filter)
        _ = Reducer.update(&s, key: .backspace)
        #expect(Reducer.update(&s, key: .ctrl("s")) == [.applyFilter("price > 1")])
        #expect(ModeHints.bottomLine(s)?.hasPrefix("^S apply  Esc cancel") == true, "\(ModeHints.bottomLine(s) ?? "")")
        // The summary: q no longer closes it, Esc does; the footer names what is bound.
        s = state(keys)
        s.mode = .summary
        s.summary = SummaryOverlay(ColumnSummary(attribute: "price", count: 0, nulls: 0, distinct: 0, min: nil, max: nil, mean: nil, top: []),
                                   type: .double)
        _ = Reducer.update(&s, key: .char("q"))
        #expect(s.mode == .summary)
        _ = Reducer.update(&s, key: .escape)
        #expect(s.mode == .browse)
        // A y/n question: z says yes, y no longer does, and the question says z.
        s = state(keys)
        s.mode = .confirmDelete
        #expect(ModeHints.bottomLine(s) == "Delete this record? z = yes, any other key = no")
        #expect(Reducer.update(&s, key: .char("y")) == [] && s.mode == .browse)
        s.mode = .confirmDelete
        #expect(Reducer.update(&s, key: .char("z")) == [.deleteRecord])
        // The `?` help lists the mode keys as bound.
        let help = KeyBindings.helpLines(keys)
        #expect(help.contains { $0.contains("x m (conflict)") && $0.contains("keep mine") }, "\(help)")
        #expect(help.contains { $0.contains("Esc F (summary)") && $0.contains("close the summary") }, "\(help)")
    }

    @Test func aCharacterCannotBeBoundWhereItIsTypedAsText() {
        let file = BindingsFile.parse("bind x line-confirm\nbind x picker-choose\nbind F2 picker-choose\nunbind q nowhere\n", path: "/k")
        #expect(file.problems.map(\.line) == [1, 2, 4])
        #expect(file.problems[0].reason.contains("typed as text"))
        #expect(file.problems[2].reason.contains("unknown mode 'nowhere'"))
        #expect(file.keyMap.modeAction(for: .function(2), in: .picker) == .pickerChoose)
        // Binding in a mode leaves the key's meaning in lists alone.
        #expect(file.keyMap.action(for: .char("x")) == nil && file.keyMap.action(for: .char("q")) == .quit)
    }

    @Test func everyModeKeyIsOneNamedCommandWithADefaultKeyInHelp() {
        let lines = KeyBindings.helpLines()
        for action in ModeAction.allCases {
            let commands = CommandTable.all.filter { $0.modeAction == action }
            #expect(commands.count == 1 && commands.first.map { !$0.defaultKeys.isEmpty && $0.mode != .browse } == true, "\(action)")
            if let c = commands.first {
                #expect(lines.contains { $0.contains(KeyMap.defaults.label(for: c.name)) && $0.hasSuffix(c.help) }, "\(c.name)")
            }
        }
    }

    @Test func helpShowsEveryCommandWithItsBoundKeys() {
        let lines = KeyBindings.helpLines()
        for command in CommandTable.all where command.action != nil {
            #expect(lines.contains { $0.hasSuffix(command.help) && $0.contains(KeyMap.defaults.label(for: command.name)) }, "\(command.name)")
        }
        for command in CommandTable.all.compactMap(\.line) {
            #expect(lines.contains { $0.contains(command.usage) }, "\(command.usage)")
        }
        var keys = KeyMap.defaults
        keys.bind(.char("x"), to: "delete")
        #expect(KeyBindings.helpLines(keys).contains { $0.hasPrefix("  x d ") && $0.contains("delete the record") })
    }

    @Test func typedCommandsRunThroughTheTable() {
        var s = state()
        #expect(Reducer.runCommand(&s, "quit") == [.quit] && Reducer.runCommand(&s, "q") == [.quit])
        #expect(Reducer.runCommand(&s, "theme dark") == [.setTheme("dark")])
        #expect(Reducer.runCommand(&s, "theme") == [] && s.statusMessage == "usage: :theme NAME")
        #expect(Reducer.runCommand(&s, "export xml out.txt") == [] && s.statusMessage == "usage: :export csv|json PATH")
        #expect(Reducer.runCommand(&s, "move-down") == [] && s.statusMessage == "unknown command :move-down")
    }

    @Test func completionOffersWhatTheCommandTakes() {
        var s = state()
        s.mode = .command
        s.editor = LineEditor("go")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "goto ")
        #expect(CompletionMenu(line: s.editor.text, in: s)?.matches == ["Product", "Task"])
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "goto Product")
        s.editor = LineEditor("theme d")
        #expect(CompletionMenu(line: s.editor.text, in: s)?.matches == ["default", "dark"])
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "theme default", "a line set from elsewhere ends the walk")
        s.editor = LineEditor("export j")
        _ = Reducer.update(&s, key: .tab)
        #expect(s.editor.text == "export json ")
    }

    @Test func aBindingsFileRebindsAndUnbindsKeysForTheReducer() {
        let file = BindingsFile.parse("# mine\nbind x delete   # like d\nunbind d\n\nbind ^D page-down\nbind # help\n", path: "/k")
        #expect(file.problems == [])
        var s = state(file.keyMap)
        #expect(Reducer.update(&s, key: .char("d")) == [] && s.mode == .browse)
        _ = Reducer.update(&s, key: .char("x"))
        #expect(s.mode == .confirmDelete)
        s.mode = .browse
        _ = Reducer.update(&s, key: .ctrl("d"))
        #expect(s.cursorRow > 0)
        _ = Reducer.update(&s, key: .char("#"))
        #expect(s.mode == .help)
        // The key taken from its old command no longer shows under it.
        #expect(file.keyMap.label(for: "delete") == "x")
    }

    @Test func badLinesNameFileLineAndReasonAndTheRestStillApplies() {
        let text = "bind x delete\nbind Z nosuch\nbind ^^^ quit\nfrob y\nunbind\nbind t theme\nbind y undo\n"
        let file = BindingsFile.parse(text, path: "/home/me/.config/vellum/keys")
        #expect(file.problems.map(\.line) == [2, 3, 4, 5, 6])
        #expect(file.problems[0].description == "/home/me/.config/vellum/keys line 2: unknown command 'nosuch'")
        #expect(file.problems[1].reason == "unknown key '^^^'")
        #expect(file.problems[2].reason.contains("unknown instruction 'frob'"))
        #expect(file.problems[4].reason.contains("typed after ':'"))
        #expect(file.summary == "key bindings: /home/me/.config/vellum/keys line 2: unknown command 'nosuch' (and 4 more problems)")
        #expect(file.keyMap.action(for: .char("x")) == .delete && file.keyMap.action(for: .char("y")) == .undo)
        // The bad line changed nothing: Z does what it does by default.
        #expect(file.keyMap.action(for: .char("Z")) == KeyMap.defaults.action(for: .char("Z")))
    }

    @Test func theFileIsFoundUnderXDGConfigHomeElseHome() throws {
        #expect(BindingsFile.path(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/vellum/keys")
        #expect(BindingsFile.path(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]) == "/h/.config/vellum/keys")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(BindingsFile.load(environment: ["XDG_CONFIG_HOME": dir.path]).keyMap == .defaults)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("vellum"), withIntermediateDirectories: true)
        try "unbind q\n".write(to: dir.appendingPathComponent("vellum/keys"), atomically: true, encoding: .utf8)
        let loaded = BindingsFile.load(environment: ["XDG_CONFIG_HOME": dir.path])
        #expect(loaded.problems == [] && loaded.keyMap.action(for: .char("q")) == nil)
    }

    @Test func everyDefaultKeyLabelReadsBackAsTheSameKey() {
        for command in CommandTable.all {
            for key in command.defaultKeys {
                #expect(KeyName.parse(KeyName.label(key)) == key, "\(command.name) \(KeyName.label(key))")
            }
        }
        #expect(KeyName.parse("C-r") == .ctrl("r") && KeyName.parse("PageDown") == .pageDown && KeyName.parse("^H") == .backspace)
        #expect(KeyName.parse("Hyper-x") == nil && KeyName.parse("F13") == nil)
    }
}
