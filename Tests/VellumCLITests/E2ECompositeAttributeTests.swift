import Foundation
import Testing
import VellumStore

/// Issue 14: a store whose model has a composite attribute, in the real binary at 80×24
/// and 120×40. Each element is a column named by its key path; `:sort` by one shows its
/// mark in that column's header; an edit reaches the file's column of that name.
@Suite("E2E composite attributes", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ECompositeAttributeTests {
    static let sizes = [(80, 24), (120, 40)]

    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Quake" representedClassName="Quake" syncable="YES">
                <attribute name="code" attributeType="String"/>
                <attribute name="magnitude" attributeType="Composite" composite="Magnitude"/>
            </entity>
            <composite name="Magnitude">
                <attribute name="richter" optional="YES" attributeType="Double"/>
                <attribute name="scale" optional="YES" attributeType="String"/>
            </composite>
        </model>
        """

    @Test(arguments: sizes)
    func aCompositeElementIsAColumnThatSortsAndEdits(width: Int, height: Int) throws {
        let dir = TempDir()
        let modelPath = dir.path("Quake.xml"), path = dir.path("quakes.vellum")
        try Self.model.write(toFile: modelPath, atomically: true, encoding: .utf8)
        let container = try PersistentStore(url: URL(fileURLWithPath: path), model: XcodeModelReader.read(url: URL(fileURLWithPath: modelPath)))
        let ctx = try ManagedObjectContext(store: container)
        for (code, richter) in [("low", 2.5), ("high", 7.25), ("mid", 4.0)] {
            _ = try ctx.insert("Quake", values: ["code": .string(code), "magnitude.richter": .double(richter)])
        }
        try ctx.save()

        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "Quake", width: width, height: height)
        defer { t.kill() }
        #expect(t.wait(for: "magnitude.richter"), "\(t.screen)")
        t.keys(":"); t.type("sort -magnitude.richter"); t.keys("Enter")
        // In the column's header (the first line), not only in the status bar's `sort: …`.
        #expect(t.wait { screen in screen.split(separator: "\n").first?.contains("magnitude.richter ▼") == true }, "\(t.screen)")
        let rows = { t.screen.split(separator: "\n").dropFirst().prefix(3).map { String($0) } }
        #expect(t.wait { _ in rows().count == 3 && rows()[0].contains("high") && rows()[2].contains("low") }, "\(t.screen)")

        // Edit the top row's magnitude.richter: it drops to the bottom, and the file holds it.
        t.keys("g", "0", "l", "Enter"); t.keys("C-u"); t.type("1.5"); t.keys("Enter")
        #expect(t.wait { _ in rows().count == 3 && rows()[2].contains("high") }, "\(t.screen)")
        #expect(try sqliteOutput(path, #"SELECT "magnitude.richter" FROM Quake WHERE code = 'high'"#) == "1.5")
    }
}
