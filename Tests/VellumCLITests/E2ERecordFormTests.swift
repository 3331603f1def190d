import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 17: creating and duplicating records in the real binary at 80×24 and 120×40,
/// checking the file with sqlite3 after every write — `a` on an entity with a required
/// field without a default opens the form, a bad value and a taken unique name are
/// refused in it (nothing written), Esc asks before typed values go; `D` asks the copy's
/// unique name and copies its to-one.
@Suite("E2E record form", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ERecordFormTests {
    static let sizes = [(80, 24), (120, 40)]

    @Test(arguments: sizes)
    func theFormAddsAProviderOnlyWhenCompleteAndEscAsksFirst(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Provider", width: width, height: height)
        defer { t.kill() }
        t.keys("a")
        #expect(t.wait(for: "new Provider"), "\(t.screen)")
        #expect(t.screen.contains("1 required field to fill"), "\(t.screen)")
        // A name another provider has: refused by the store, the form stays with the reason.
        let taken = store.sql("SELECT name FROM Provider ORDER BY _pk LIMIT 1")
        t.type(taken); t.keys("Tab"); t.type("Spain"); t.keys("C-s")
        #expect(t.wait(for: "must be unique"), "\(t.screen)")
        #expect(t.screen.contains("new Provider") && t.screen.contains("Spain"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Provider") == "10")
        // Esc with typed values asks; n keeps the form, y drops it and writes nothing.
        t.keys("Escape")
        #expect(t.wait(for: "Discard the values typed"), "\(t.screen)")
        t.keys("n")
        #expect(t.wait(for: "kept the form"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait(for: "Discard the values typed"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "add cancelled; nothing written"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Provider") == "10")
        // Again, with a new name: saved, selected, in the file.
        t.keys("a"); t.type("Tiber Goods"); t.keys("Tab"); t.type("Italy"); t.keys("Enter")
        #expect(t.wait(for: "added a Provider"), "\(t.screen)")
        #expect(store.sql("SELECT country FROM Provider WHERE name = 'Tiber Goods'") == "Italy")
        #expect(t.wait(for: "row 11/11"), "\(t.screen)")
    }

    @Test(arguments: sizes)
    func aBadValueKeepsTheFormAndAPickedProviderIsSavedWithTheProduct(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        t.keys("A")
        #expect(t.wait(for: "new Product"), "\(t.screen)")
        t.type("Form Kettle"); t.keys("Tab"); t.type("4,50")
        #expect(t.wait(for: "'4,50' is not a number"), "\(t.screen)")
        t.keys("C-s")
        #expect(t.wait(for: "not saved: price"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Product WHERE name = 'Form Kettle'") == "0")
        t.keys("C-u"); t.type("12.5")
        t.keys("Up", "Up")   // to the name, then round to the last field, the provider
        t.keys("Enter")
        #expect(t.wait(for: "provider of the new Product"), "\(t.screen)")
        t.type("Kyoto"); t.keys("Enter")
        #expect(t.wait(for: "→ Kyoto Crafts"), "\(t.screen)")
        t.keys("C-s")
        #expect(t.wait(for: "added a Product"), "\(t.screen)")
        #expect(store.sql("SELECT p.price || '|' || v.name FROM Product p JOIN Provider v ON v._pk = p.provider WHERE p.name = 'Form Kettle'")
                == "12.5|Kyoto Crafts")
    }

    @Test(arguments: sizes)
    func duplicateAsksTheCopysUniqueNameAndKeepsItsValues(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Provider", width: width, height: height)
        defer { t.kill() }
        let original = store.sql("SELECT name || '|' || country FROM Provider ORDER BY name LIMIT 1").split(separator: "|").map(String.init)
        t.keys("D")
        #expect(t.wait(for: "copy's name (unique)"), "\(t.screen)")
        // The same name: refused, the line opens again with the reason.
        t.keys("Enter")
        #expect(t.wait(for: "not saved"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Provider") == "10")
        t.keys("C-u"); t.type("\(original[0]) II"); t.keys("Enter")
        #expect(t.wait(for: "duplicated the Provider"), "\(t.screen)")
        #expect(store.sql("SELECT country FROM Provider WHERE name = '\(original[0]) II'") == original[1])
    }

    @Test(arguments: sizes)
    func theMembershipPickerMovesAProductToTheProviderAsOneChange(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Provider", width: width, height: height)
        defer { t.kill() }
        let provider = store.sql("SELECT _pk || '|' || name FROM Provider ORDER BY name LIMIT 1").split(separator: "|").map(String.init)
        let before = store.sql("SELECT count(*) FROM Product WHERE provider = \(provider[0])")
        let outsider = store.sql("SELECT name FROM Product WHERE provider <> \(provider[0]) ORDER BY name LIMIT 1")
        t.keys("$", "e")
        #expect(t.wait(for: "products of \(provider[1])"), "\(t.screen)")
        #expect(t.screen.contains("\(before) chosen"), "\(t.screen)")
        t.type(outsider)
        #expect(t.wait(for: "[ ] \(outsider)"), "\(t.screen)")
        t.keys("Tab")
        #expect(t.wait(for: "[x] \(outsider)") && t.screen.contains("chosen (+1)"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Product WHERE provider = \(provider[0])") == before, "nothing before Enter")
        t.keys("Enter")
        #expect(t.wait(for: "products: added 1"), "\(t.screen)")
        #expect(store.sql("SELECT v.name FROM Product p JOIN Provider v ON v._pk = p.provider WHERE p.name = '\(outsider)'") == provider[1])
        // Undo takes it back.
        t.keys("u")
        #expect(t.wait(for: "undid"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Product WHERE provider = \(provider[0])") == before)
    }

    @Test(arguments: sizes)
    func sectionHeadersShowTheirFigureAndFollowTheSQLiteShell(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        t.keys(":"); t.type("group provider sum(stock)"); t.keys("Enter")
        #expect(t.wait(for: "grouped by provider.name with sum(stock)"), "\(t.screen)")
        t.keys("g")
        let first = store.sql("SELECT v.name || '|' || sum(p.stock) FROM Product p JOIN Provider v ON v._pk = p.provider GROUP BY v.name ORDER BY v.name LIMIT 1")
            .split(separator: "|").map(String.init)
        #expect(t.wait(for: "· sum(stock) \(first[1])"), "\(t.screen)")
        _ = store.sql("UPDATE Product SET stock = stock + 1000, _version = _version + 1 WHERE _pk = (SELECT p._pk FROM Product p JOIN Provider v ON v._pk = p.provider WHERE v.name = '\(first[0])' LIMIT 1)")
        #expect(t.wait(for: "· sum(stock) \(Int(first[1])! + 1000)"), "\(t.screen)")
    }
}
