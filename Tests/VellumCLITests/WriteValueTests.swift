import Foundation
import Testing
import VellumStore
@testable import vellum

/// Issue #11 items 8, 13 and 14 through the real `vellum` binary: values are
/// written as typed or refused with the reason, and errors name the cause.
@Suite("vellum insert/update values", .serialized)
struct WriteValueTests {
    let dir = TempDir()
    var path: String { dir.path("shop.vellum") }

    init() throws { try CLIFixtures.makeShop(at: dir.path("shop.vellum")) }

    func snapshot() throws -> String { try CLIFixtures.shopSnapshot(path) }

    @Test func cliRefusesDatesItWouldAlter() throws {
        let before = try snapshot()
        for bad in ["2024-05-01 garbage", "2024-06-01xyz", "2024-02-30", "2024-06-02T25:99:00Z", "99999-01-01"] {
            for args in [["insert", path, "Product", "name=x", "added=\(bad)"],
                         ["update", path, "Product", "--where", "TRUEPREDICATE", "added=\(bad)"]] {
                let r = try VellumBinary.run(args)
                #expect(r.status == 1, "\(args): \(r.stdout)")
                #expect(r.stderr.hasPrefix("vellum: Product.added: '\(bad)' is not a date: "), "\(r.stderr)")
                #expect(r.stderr.contains("2024-05-01, 2024-05-01T12:30, 2024-05-01 12:30:15"), "the accepted forms: \(r.stderr)")
                #expect(r.stdout.isEmpty)
            }
        }
        #expect(try snapshot() == before)
        let ok = try VellumBinary.run(["insert", path, "Product", "name=x", "added=2024-05-01 12:30"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try sqliteScalar(path, "SELECT added FROM Product WHERE name = 'x'") == "1714566600.0")
    }

    /// A date as `vellum query` shows it, typed back with `vellum update`, leaves the
    /// stored double exactly as it was. Random stored values, seeded (`VELLUM_SEED`).
    @Test func shownDatesTypeBackToTheSameValue() throws {
        let seed = ProcessInfo.processInfo.environment["VELLUM_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max / 2)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<6 {
            let stored = Double.random(in: -2_000_000_000...4_000_000_000, using: &rng)
            _ = try runSQLite(path, "UPDATE Product SET added = \(String(format: "%.17g", stored)) WHERE name = 'apple';")
            let before = try #require(try storedSeconds(path, "Product", "added", where: "name == 'apple'"))
            let q = try VellumBinary.run(["query", path, "Product", "--where", "name == 'apple'", "--format", "csv"])
            let lines = q.stdout.components(separatedBy: "\r\n")
            let column = try #require(lines[0].split(separator: ",").firstIndex(of: "added"))
            let shown = String(lines[1].split(separator: ",", omittingEmptySubsequences: false)[column])
            let u = try VellumBinary.run(["update", path, "Product", "--where", "name == 'apple'", "added=\(shown)"])
            #expect(u.status == 0, "seed \(seed): \(shown): \(u.stderr)")
            #expect(try storedSeconds(path, "Product", "added", where: "name == 'apple'") == before, "seed \(seed): \(before) shown as \(shown)")
        }
    }

    @Test func emptyTextForARequiredStringIsRefused() throws {
        let before = try snapshot()
        for args in [["insert", path, "Product", "name="], ["update", path, "Product", "--where", "TRUEPREDICATE", "name="]] {
            let r = try VellumBinary.run(args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr == "vellum: Product.name: name is required\n", "\(r.stderr)")
        }
        #expect(try snapshot() == before)
        // An optional string still takes empty as null.
        #expect(try VellumBinary.run(["update", path, "Product", "--where", "name == 'apple'", "sku="]).status == 0)
        #expect(try sqliteScalar(path, "SELECT sku IS NULL FROM Product WHERE name = 'apple'") == "1")
    }

    @Test func duplicateSaysWhichAttributeMustBeUnique() throws {
        let before = try snapshot()
        let r = try VellumBinary.run(["insert", path, "Provider", "name=Acme"])
        #expect(r.status == 1)
        #expect(r.stderr == "vellum: nothing written: Provider.name must be unique ('Acme' exists)\n", "\(r.stderr)")
        #expect(!r.stderr.contains("vellum://"))
        #expect(try snapshot() == before)
    }

    @Test func decimalSaysHowItIsStored() throws {
        let store = dir.path("ledger.vellum")
        let model = try ModelBuilder().entity("Entry") { $0.attribute("amount", .decimal) }.build()
        _ = try PersistentStore(url: URL(fileURLWithPath: store), model: model)
        let r = try VellumBinary.run(["insert", store, "Entry", "amount=12.50"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "vellum: note: Entry.amount: '12.50' is stored as 12.5\n", "\(r.stderr)")
        #expect(try sqliteScalar(store, "SELECT amount FROM Entry") == "12.5")
        let plain = try VellumBinary.run(["insert", store, "Entry", "amount=3.25"])
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
    }

    @Test func foundationErrorsNeverReachTheCLI() throws {
        // Reading /proc/self/mem from its start fails inside Foundation (EIO).
        let r = try VellumBinary.run(["model", "/proc/self/mem"])
        #expect(r.status == 1)
        #expect(r.stderr == "vellum: /proc/self/mem: cannot read file: the file could not be read\n", "\(r.stderr)")
        #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stderr.contains("Error Domain"))
    }
}
