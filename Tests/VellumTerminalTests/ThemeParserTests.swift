import Foundation
import Testing
@testable import VellumTerminal

@Suite struct ThemeParserTests {
    /// An in-memory set of theme files resolved like the loader does.
    private func resolve(_ name: String, _ files: [String: String]) throws(ThemeError) -> Theme {
        func definition(_ n: String) throws(ThemeError) -> ThemeDefinition? {
            guard let text = files[n] else { return nil }
            return try ThemeParser.parse(text, file: "\(n).theme", name: n)
        }
        guard let leaf = try definition(name) else {
            throw ThemeError(file: name, line: 0, key: nil, reason: "missing")
        }
        return try ThemeResolver.resolve(leaf, lookup: definition)
    }

    private func error(_ name: String, _ files: [String: String]) -> ThemeError? {
        do {
            _ = try resolve(name, files)
            return nil
        } catch {
            return error
        }
    }

    static let base = """
    # base theme
    name = Base
    [palette]
    bg = #101010
    fg = #e0e0e0   # light grey
    hot = #ff0000
    [roles]
    background = fg:fg bg:bg
    text = fg:fg bg:bg
    header = fg:hot bg:bg bold underline
    selection = fg:#ffffff bg:blue bold
    cursor = reverse
    highlight = fg:0 bg:226
    error = fg:bright-red
    status = fg:black bg:white
    statusText = fg:black bg:white bold
    border = fg:8
    dim = dim
    accent = fg:hot
    warning = fg:yellow bg:default
    """

    @Test func parsesGoodFile() throws {
        let theme = try resolve("base", ["base": Self.base])
        #expect(theme.name == "base")
        #expect(theme.displayName == "Base")
        #expect(theme[.text] == Style(foreground: .rgb(RGB(0xe0, 0xe0, 0xe0)), background: .rgb(RGB(0x10, 0x10, 0x10))))
        #expect(theme[.header].attributes == [.bold, .underline])
        #expect(theme[.selection] == Style(foreground: .rgb(RGB(255, 255, 255)), background: .ansi(.blue), attributes: .bold))
        #expect(theme[.cursor] == Style(attributes: .reverse))
        #expect(theme[.highlight] == Style(foreground: .indexed(0), background: .indexed(226)))
        #expect(theme[.error].foreground == .ansi(.brightRed))
        #expect(theme[.warning].background == .default)
    }

    @Test func inheritanceWithLateBoundPalette() throws {
        let child = """
        inherits = base
        [palette]
        hot = #00ff00
        [roles]
        cursor = fg:hot bold
        """
        let theme = try resolve("child", ["base": Self.base, "child": child])
        #expect(theme.name == "child")
        // Parent's roles pick up the child's palette override.
        #expect(theme[.header].foreground == .rgb(RGB(0, 255, 0)))
        #expect(theme[.accent].foreground == .rgb(RGB(0, 255, 0)))
        #expect(theme[.cursor] == Style(foreground: .rgb(RGB(0, 255, 0)), attributes: .bold))
        #expect(theme[.text].background == .rgb(RGB(0x10, 0x10, 0x10)))
    }

    /// Issue #11, item 16: the palette is redefined only when a theme asks.
    @Test func exactColorsIsOffUnlessAThemeAsksAndIsInherited() throws {
        #expect(try resolve("base", ["base": Self.base]).exactColors == false)
        let exact = "inherits = base\nexact-colors = true\n"
        #expect(try resolve("exact", ["base": Self.base, "exact": exact]).exactColors == true)
        let grandchild = "inherits = exact\n"
        #expect(try resolve("grandchild", ["base": Self.base, "exact": exact, "grandchild": grandchild]).exactColors == true)
        let off = "inherits = exact\nexact-colors = no\n"
        #expect(try resolve("off", ["base": Self.base, "exact": exact, "off": off]).exactColors == false)
        let bad = error("bad", ["base": Self.base, "bad": "inherits = base\nexact-colors = maybe\n"])
        #expect(bad?.description == "bad.theme:2: key 'exact-colors': expected true or false")
    }

    @Test func topLevelRoleKeysAreAccepted() throws {
        let child = "inherits = base\nselection = fg:#000000 bg:#ffff00\n"
        let theme = try resolve("child", ["base": Self.base, "child": child])
        #expect(theme[.selection].background == .rgb(RGB(255, 255, 0)))
    }

    @Test func badColour() {
        let e = error("bad", ["base": Self.base, "bad": "inherits = base\n\n[roles]\ntext = fg:#12345g\n"])
        #expect(e?.description == "bad.theme:4: key 'text': bad colour '#12345g' (expected #rrggbb or #rgb)")
        let e2 = error("bad", ["base": Self.base, "bad": "inherits = base\n[palette]\nx = 300\n"])
        #expect(e2?.line == 3)
        #expect(e2?.key == "x")
    }

    @Test func unknownKeyAndRole() {
        let e = error("bad", ["bad": "colour = red\n"])
        #expect(e?.file == "bad.theme")
        #expect(e?.line == 1)
        #expect(e?.key == "colour")
        let e2 = error("bad", ["bad": "# c\n[roles]\nsidebar = fg:red\n"])
        #expect(e2?.line == 3)
        #expect(e2?.description.hasPrefix("bad.theme:3: key 'sidebar': unknown role") == true)
        let e3 = error("bad", ["bad": "[colors]\n"])
        #expect(e3?.description.hasPrefix("bad.theme:1: unknown section") == true)
        let e4 = error("bad", ["base": Self.base, "bad": "inherits = base\nheader = fg:red sparkly\n"])
        #expect(e4?.line == 2)
        #expect(e4?.key == "header")
    }

    @Test func unknownPaletteReferenceReportsDefiningLine() {
        let e = error("bad", ["base": Self.base, "bad": "inherits = base\n[roles]\n\naccent = fg:nosuch\n"])
        #expect(e?.description.hasPrefix("bad.theme:4: key 'accent': unknown colour 'nosuch'") == true)
    }

    @Test func missingRole() {
        let partial = Self.base.split(separator: "\n").filter { !$0.hasPrefix("warning") }.joined(separator: "\n")
        let e = error("partial", ["partial": partial])
        #expect(e?.key == "warning")
        #expect(e?.file == "partial.theme")
        #expect(e?.reason.contains("required role") == true)
    }

    @Test func inheritanceCycle() {
        let e = error("a", ["a": "inherits = b\n", "b": "# b\ninherits = c\n", "c": "inherits = a\n"])
        #expect(e?.file == "c.theme")
        #expect(e?.line == 1)
        #expect(e?.key == "inherits")
        #expect(e?.reason.contains("a -> b -> c -> a") == true)
        let selfCycle = error("a", ["a": "inherits = a\n"])
        #expect(selfCycle?.key == "inherits")
    }

    @Test func unknownParent() {
        let e = error("a", ["a": "\ninherits = ghost\n"])
        #expect(e?.description == "a.theme:2: key 'inherits': unknown theme 'ghost'")
    }

    @Test func malformedLines() {
        #expect(error("a", ["a": "just words\n"])?.description == "a.theme:1: expected 'key = value'")
        #expect(error("a", ["a": "text =\n"])?.key == "text")
        #expect(error("a", ["a": "[palette]\nx = red\nx = blue\n"])?.line == 3)
        #expect(error("a", ["a": "[palette]\na = b\nb = a\n"])?.reason.contains("refers to itself") == true)
    }
}
