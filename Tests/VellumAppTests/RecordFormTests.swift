import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: `a` on an entity whose records need values (a required attribute without
/// a default, a required to-one) opens a form of every field, required ones marked,
/// defaults filled, each checked as typed; the record is written only when the form
/// is complete; Esc asks before typed values are dropped. `A` opens it on any entity.
@MainActor @Suite(.serialized) struct RecordFormTests {
    let snapshots = SnapshotTests()


    func field(_ s: BrowserSession, _ name: String) -> RecordForm.Field? { s.state.form?.fields.first { $0.name == name } }

    @Test func aOnAnEntityWithARequiredFieldWithoutDefaultOpensTheFormAndSavesOnlyWhenComplete() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Provider")
        try await snapshots.type("a", into: s)
        #expect(s.state.mode == .form)
        #expect(s.state.form?.fields.map(\.name) == ["name", "country"])
        #expect(field(s, "name")?.isRequired == true && field(s, "name")?.isMissing == true)
        #expect(field(s, "country")?.isRequired == false)
        // ^S with the required name blank: refused in the form, nothing written.
        await s.handle(.ctrl("s"))
        #expect(s.state.mode == .form)
        #expect(s.state.form?.refusal == "not saved: name: required", "\(s.state.form?.refusal ?? "")")
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT count(*) FROM Provider") == "10")
        try await snapshots.type("Tiber Goods\tItaly", into: s)
        #expect(s.state.form?.isComplete == true)
        await s.handle(.ctrl("s"))
        await s.writesSettled()
        #expect(await waitUntil { s.state.mode == .browse })
        #expect(try sqliteText(url, "SELECT country FROM Provider WHERE name = 'Tiber Goods'") == "Italy")
        #expect(try sqliteText(url, "SELECT count(*) FROM Provider") == "11")
        #expect(s.state.form == nil)
        #expect(await waitUntil { (try? s.rows?.object(at: s.state.cursorRow).value(forKey: "name").stringValue) == "Tiber Goods" },
                "the new record is selected")
    }

    @Test func aOnAnEntityWhoseRequiredFieldsHaveDefaultsAddsAtOnceAndUppercaseAOpensTheForm() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Task")
        try await snapshots.type("a", into: s)
        #expect(s.state.mode == .browse)
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT count(*) FROM Task") == "31")
        try await snapshots.type("A", into: s)
        #expect(s.state.mode == .form)
        // Defaults filled, and offered as suggestions: typing replaces them.
        #expect(field(s, "title")?.text == "New task" && s.state.editor.isSuggestion)
        try await snapshots.type("Water plants\t\t\t9", into: s)
        #expect(field(s, "title")?.text == "Water plants")
        #expect(field(s, "priority")?.problem != nil, "9 is over the maximum 5")
        await s.handle(.enter)   // the last field: save, refused
        #expect(s.state.mode == .form && s.state.form?.refusal?.hasPrefix("not saved: priority") == true, "\(s.state.form?.refusal ?? "")")
        await s.handle(.backspace)
        try await snapshots.type("4\r", into: s)
        await s.writesSettled()
        #expect(await waitUntil { s.state.mode == .browse })
        #expect(try sqliteText(url, "SELECT priority, done FROM Task WHERE title = 'Water plants'") == "4|0")
    }

    @Test func escAfterTypingAsksBeforeDroppingTheValuesAndEscOnAnUntouchedFormCloses() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Provider")
        try await snapshots.type("a", into: s)
        await s.handle(.escape)
        #expect(s.state.mode == .browse && s.state.statusMessage == "add cancelled; nothing written")
        try await snapshots.type("aHalf typed", into: s)
        await s.handle(.escape)
        #expect(s.state.mode == .form && s.state.form?.confirmingDiscard == true)
        // Any key but yes keeps the form, with what was typed, and is not typed itself.
        await s.handle(.char("n"))
        #expect(s.state.mode == .form && field(s, "name")?.text == "Half typed" && s.state.editor.text == "Half typed")
        await s.handle(.escape)
        await s.handle(.char("y"))
        #expect(s.state.mode == .browse && s.state.form == nil)
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT count(*) FROM Provider") == "10")
    }

    @Test func aNameTakenByAnotherRecordKeepsTheFormOpenWithTheReasonAndTheTypedValues() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Provider")
        try await snapshots.type("aKyoto Crafts\tSpain", into: s)
        await s.handle(.ctrl("s"))
        #expect(await waitUntil { s.state.form?.isSaving == false && s.state.form?.refusal != nil })
        #expect(s.state.mode == .form)
        #expect(s.state.form?.refusal?.contains("unique") == true, "\(s.state.form?.refusal ?? "")")
        #expect(s.state.form?.current?.name == "name", "the cursor goes to the field the store named")
        #expect(field(s, "country")?.text == "Spain" && field(s, "name")?.text == "Kyoto Crafts")
        #expect(try sqliteText(url, "SELECT count(*) FROM Provider") == "10")
        await s.handle(.ctrl("u"))
        try await snapshots.type("Kyoto Crafts II", into: s)
        await s.handle(.ctrl("s"))
        await s.writesSettled()
        #expect(await waitUntil { s.state.mode == .browse })
        #expect(try sqliteText(url, "SELECT country FROM Provider WHERE name = 'Kyoto Crafts II'") == "Spain")
    }

    @Test func aToOneIsPickedIntoTheFormAndWrittenWithTheRecord() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Product")
        try await snapshots.type("A", into: s)
        while s.state.form?.current?.name != "provider" { await s.handle(.tab) }
        await s.handle(.enter)
        #expect(s.state.mode == .picker)
        try await snapshots.type("Baltic", into: s)
        await s.handle(.enter)
        #expect(s.state.mode == .form && field(s, "provider")?.text == "Baltic Amber")
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT count(*) FROM Product") == "200", "picking writes nothing")
        // Esc in the picker goes back to the form, keeping the choice.
        await s.handle(.enter)
        await s.handle(.escape)
        #expect(s.state.mode == .form && field(s, "provider")?.text == "Baltic Amber")
        await s.handle(.ctrl("s"))
        await s.writesSettled()
        #expect(await waitUntil { s.state.mode == .browse })
        #expect(try sqliteText(url, "SELECT v.name FROM Product p JOIN Provider v ON v._pk = p.provider WHERE p._pk = (SELECT max(_pk) FROM Product)")
                == "Baltic Amber")
    }

    @Test func aRequiredToOneOpensTheFormAndBlocksTheSaveUntilPicked() async throws {
        let dir = TempDir()
        let url = dir.url.appendingPathComponent("library.sqlite")
        let model = try ModelBuilder()
            .entity("Author") {
                $0.attribute("name", .string)
                $0.toMany("books", "Book", inverse: "author", deleteRule: .cascade)
            }
            .entity("Book") {
                $0.attribute("title", .string, default: .string("Untitled"))
                $0.toOne("author", "Author", inverse: "books", optional: false)
            }
            .build()
        let container = try PersistentContainer(model: model, storeURL: url)
        try await container.enqueue { ctx in _ = try ctx.insert("Author", values: ["name": .string("Ursula")]) }
        let s = BrowserSession(container: container)
        s.setLayout(Layout(size: TerminalSize(rows: 24, columns: 80)))
        try await snapshots.type(":goto Book\ra", into: s)
        #expect(s.state.mode == .form)
        #expect(field(s, "author")?.isMissing == true)
        await s.handle(.ctrl("s"))
        #expect(s.state.form?.refusal == "not saved: author: required: pick one", "\(s.state.form?.refusal ?? "")")
        #expect(s.state.form?.current?.name == "author")
        await s.handle(.enter)
        try await snapshots.type("Urs\r", into: s)
        #expect(field(s, "author")?.text == "Ursula")
        await s.handle(.ctrl("s"))
        await s.writesSettled()
        #expect(await waitUntil { s.state.mode == .browse })
        #expect(try sqliteText(url, "SELECT b.title, a.name FROM Book b JOIN Author a ON a._pk = b.author") == "Untitled|Ursula")
    }

    /// A to-many the record cannot be saved without (not optional, at least two members):
    /// before, `a` inserted at once and the save was refused by validation. Now the form
    /// has the field, its membership picker chooses into the form, and the record is
    /// written with its members in one insert.
    /// Teams need at least two members; Ada, Grace and Linus exist. The session is on Team.
    func teamsSession(_ dir: TempDir) async throws -> (BrowserSession, PersistentContainer, URL) {
        let url = dir.url.appendingPathComponent("teams.sqlite")
        let model = try ModelBuilder()
            .entity("Team") {
                $0.attribute("name", .string, default: .string("New team"))
                $0.toMany("members", "Person", inverse: "teams", optional: false, min: 2)
            }
            .entity("Person") {
                $0.attribute("name", .string)
                $0.toMany("teams", "Team", inverse: "members")
            }
            .build()
        let container = try PersistentContainer(model: model, storeURL: url)
        try await container.enqueue { ctx in
            for name in ["Ada", "Grace", "Linus"] { _ = try ctx.insert("Person", values: ["name": .string(name)]) }
        }
        let s = BrowserSession(container: container)
        s.setLayout(Layout(size: TerminalSize(rows: 24, columns: 80)))
        return (s, container, url)
    }

    /// `a`, then Ada and Grace chosen into the members field.
    func chooseAdaAndGrace(_ s: BrowserSession) async throws {
        try await snapshots.type(":goto Team\ra", into: s)
        while s.state.form?.current?.name != "members" { await s.handle(.tab) }
        try await chooseInOpenPicker(["Ada", "Grace"], s)
    }

    /// Enter on the current to-many field, each of `names` searched and chosen (Tab), Enter.
    func chooseInOpenPicker(_ names: [String], _ s: BrowserSession) async throws {
        await s.handle(.enter)
        for name in names {
            await s.handle(.ctrl("u"))
            try await snapshots.type(name, into: s)
            await s.handle(.tab)
        }
        await s.handle(.enter)
    }

    @Test func aMemberDeletedByAnotherWriterBeforeTheSaveKeepsTheFormAndSaysSo() async throws {
        let dir = TempDir()
        let (s, container, url) = try await teamsSession(dir)
        try await chooseAdaAndGrace(s)
        #expect(field(s, "members")?.text == "2 chosen: Ada, Grace")
        try await container.enqueue { ctx in
            try ctx.delete(try #require(try ctx.fetch("Person", where: QueryPredicate(format: "name == 'Grace'")).first))
        }
        await s.handle(.ctrl("s"))
        await s.writesSettled()
        #expect(await waitUntil { s.state.form?.isSaving == false })
        #expect(s.state.mode == .form)
        #expect(s.state.form?.refusal == "not saved: a record chosen for members was deleted meanwhile: choose again", "\(s.state.form?.refusal ?? "")")
        #expect(s.state.form?.current?.name == "members")
        #expect(try sqliteText(url, "SELECT count(*) FROM Team") == "0")
    }

    @Test func aRequiredToManyIsChosenIntoTheFormAndWrittenWithTheRecord() async throws {
        let dir = TempDir()
        let (s, container, url) = try await teamsSession(dir)
        try await snapshots.type(":goto Team\ra", into: s)
        #expect(s.state.mode == .form)
        #expect(s.state.form?.fields.map(\.name) == ["name", "members"])
        #expect(field(s, "members")?.isMissing == true)
        await s.handle(.ctrl("s"))
        #expect(s.state.form?.refusal == "not saved: members: required: choose at least 2", "\(s.state.form?.refusal ?? "")")
        #expect(s.state.form?.current?.name == "members")
        // Enter lists the people; Tab chooses; Enter puts the choice in the form, not the store.
        await s.handle(.enter)
        #expect(s.state.mode == .picker && s.state.picker.isMembership)
        try await snapshots.type("Ada", into: s)
        await s.handle(.tab)
        await s.handle(.escape)
        #expect(s.state.mode == .form && field(s, "members")?.targets.isEmpty == true, "Esc keeps the form's members as they were")
        try await chooseInOpenPicker(["Ada", "Grace"], s)
        #expect(s.state.mode == .form)
        #expect(field(s, "members")?.text == "2 chosen: Ada, Grace", "\(field(s, "members")?.text ?? "")")
        #expect(field(s, "members")?.problem == nil)
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT count(*) FROM Team") == "0", "choosing writes nothing")
        await s.handle(.ctrl("s"))
        await s.writesSettled()
        #expect(await waitUntil { s.state.mode == .browse })
        #expect(try sqliteText(url, "SELECT count(*) FROM Team") == "1")
        let team = try #require(try container.viewContext.fetch("Team").first)
        #expect(try Set(team.toMany("members").map { try $0["name"] }) == ["Ada", "Grace"])
    }
}
