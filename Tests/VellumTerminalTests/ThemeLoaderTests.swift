import Foundation
import Testing
@testable import VellumTerminal

@Suite struct ThemeLoaderTests {
    static let repoThemes: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Themes").path

    static let shipped = ["default", "light", "solarized-dark", "solarized-light", "gruvbox-dark",
                          "nord", "dracula", "high-contrast", "monochrome"]

    @Test func everyShippedThemeResolvesFromDisk() throws {
        let loader = ThemeLoader(builtInDirectories: [Self.repoThemes], useEmbedded: false, userDirectory: nil)
        #expect(Set(loader.availableThemeNames()).isSuperset(of: Self.shipped))
        for name in Self.shipped {
            let theme = try loader.load(named: name)
            #expect(theme.name == name)
        }
    }

    @Test func embeddedCopiesMatchThemeFiles() throws {
        #expect(Set(EmbeddedThemes.files.keys) == Set(Self.shipped))
        for name in Self.shipped {
            let onDisk = try String(contentsOfFile: "\(Self.repoThemes)/\(name).theme", encoding: .utf8)
            #expect(EmbeddedThemes.files[name] == onDisk, "run scripts/embed-themes.sh (\(name))")
        }
        let embeddedOnly = ThemeLoader(builtInDirectories: [], useEmbedded: true, userDirectory: nil)
        for name in Self.shipped {
            _ = try embeddedOnly.load(named: name)
        }
    }

    @Test func monochromeHasNoColours() throws {
        let theme = try ThemeLoader(builtInDirectories: [], userDirectory: nil).load(named: "monochrome")
        for role in ThemeRole.allCases {
            #expect(theme[role].foreground == .default)
            #expect(theme[role].background == .default)
        }
        #expect(theme[.selection].attributes.contains(.reverse))
    }

    @Test func solarizedLightSwapsBaseTones() throws {
        let loader = ThemeLoader(builtInDirectories: [], userDirectory: nil)
        let dark = try loader.load(named: "solarized-dark")
        let light = try loader.load(named: "solarized-light")
        #expect(dark[.text].background == .rgb(RGB(hex: "#002b36")!))
        #expect(light[.text].background == .rgb(RGB(hex: "#fdf6e3")!))
        #expect(light[.header].foreground == .rgb(RGB(hex: "#268bd2")!))
    }

    @Test func userDirectoryAndEnvironment() throws {
        let tmp = TempDir()
        let userDir = tmp.file("vellum/themes")
        try FileManager.default.createDirectory(at: userDir, withIntermediateDirectories: true)
        try "inherits = nord\n[palette]\nsel-bg = #ff00ff\n".write(
            to: userDir.appendingPathComponent("mine.theme"), atomically: true, encoding: .utf8)
        try "inherits = nord\nbogus = 1\n".write(
            to: userDir.appendingPathComponent("broken.theme"), atomically: true, encoding: .utf8)

        let loader = ThemeLoader(environment: ["XDG_CONFIG_HOME": tmp.url.path, "VELLUM_THEMES_DIR": Self.repoThemes],
                                 executablePath: "/nonexistent/bin/vellum")
        #expect(loader.builtInDirectories == [Self.repoThemes])
        #expect(loader.userDirectory == userDir.path)
        #expect(loader.availableThemeNames().contains("mine"))
        let mine = try loader.load(named: "mine")
        #expect(mine[.selection].background == .rgb(RGB(255, 0, 255)))
        #expect(mine[.text].background == .rgb(RGB(hex: "#2e3440")!))

        do {
            _ = try loader.load(named: "broken")
            Issue.record("expected error")
        } catch {
            #expect(error.description == "\(userDir.path)/broken.theme:2: key 'bogus': unknown key (expected name, inherits, exact-colors or a role: background, text, header, selection, cursor, highlight, error, status, statusText, border, dim, accent, warning)")
        }

        // Issue #11 item 14: an unreadable theme names the cause, not Foundation's error.
        try Data([0x69, 0x6e, 0xff, 0xfe]).write(to: userDir.appendingPathComponent("latin.theme"))
        do {
            _ = try loader.load(named: "latin")
            Issue.record("expected error")
        } catch {
            #expect(error.reason == "cannot read file (not valid UTF-8 text)", "\(error.description)")
        }

        let (fallback, problem) = loader.loadWithFallback(named: "broken", capability: .trueColor)
        #expect(fallback.name == "default")
        #expect(problem?.key == "bogus")
        let (mono, none) = loader.loadWithFallback(named: "default", capability: .none)
        #expect(mono.name == "monochrome")
        #expect(none == nil)
    }

    @Test func homeFallbackAndUnsafeNames() throws {
        let loader = ThemeLoader(environment: ["HOME": "/home/u"], executablePath: nil)
        #expect(loader.userDirectory == "/home/u/.config/vellum/themes")
        #expect(try loader.definition(named: "../etc/passwd") == nil)
        do {
            _ = try loader.load(named: "nope")
            Issue.record("expected error")
        } catch {
            #expect(error.reason.hasPrefix("no theme named 'nope'"))
        }
    }
}
