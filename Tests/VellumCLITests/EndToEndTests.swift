import Foundation
import Testing
import VellumStore
@testable import vellum

/// Runs the built `vellum` binary as a subprocess.
enum VellumBinary {
    /// The `vellum` executable: next to the test bundle (the build directory), else `.build/debug/vellum`.
    static let url: URL = {
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("vellum"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("vellum"))
        candidates.append(PackageRoot.url.appendingPathComponent(".build/debug/vellum"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Output { try run(executable: url, arguments) }

    /// Runs `executable` (e.g. `setpriv` or `bash` wrapping `vellum`) with `arguments`.
    static func run(executable: URL, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes concurrently so a full pipe cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

@Suite("vellum binary", .serialized)
struct EndToEndTests {
    static let fixture = SharedFixtures.directory.appendingPathComponent("models/moody-minimal.xcdatamodel.xml").path

    @Test func binaryExists() {
        #expect(FileManager.default.isExecutableFile(atPath: VellumBinary.url.path), "\(VellumBinary.url.path)")
    }

    @Test func version() throws {
        let r = try VellumBinary.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout == "vellum 0.1.0\n")
    }

    @Test func modelOfXcodeFixture() throws {
        let r = try VellumBinary.run(["model", Self.fixture])
        #expect(r.status == 0, "\(r.stderr)")
        let model = try ModelLoader.load(from: URL(fileURLWithPath: Self.fixture))
        #expect(r.stdout == ModelFormatter.describe(model))
        #expect(r.stdout.contains("entity Mood"))
        #expect(r.stdout.contains("date"))
        #expect(r.stdout.contains("version hash: \(model.versionHash)"))
        #expect(r.stderr.isEmpty)
    }

    @Test func modelJSONRoundTrips() throws {
        let r = try VellumBinary.run(["model", Self.fixture, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let parsed = try ManagedObjectModel(jsonData: Data(r.stdout.utf8))
        let loaded = try ModelLoader.load(from: URL(fileURLWithPath: Self.fixture))
        #expect(parsed == loaded)
        #expect(parsed.versionHash == loaded.versionHash)

        // The JSON output is itself a model file.
        let dir = TempDir()
        let jsonPath = dir.path("model.json")
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: jsonPath))
        let again = try VellumBinary.run(["model", jsonPath])
        #expect(again.status == 0)
        #expect(again.stdout == ModelFormatter.describe(loaded))
    }

    @Test func createThenModelOfStore() throws {
        let dir = TempDir()
        let store = dir.path("moody.vellum")
        let c = try VellumBinary.run(["create", store, "--model", Self.fixture])
        #expect(c.status == 0, "\(c.stderr)")
        #expect(c.stdout.contains("created"))
        #expect(FileManager.default.fileExists(atPath: store))

        let fromXML = try VellumBinary.run(["model", Self.fixture])
        let fromStore = try VellumBinary.run(["model", store])
        #expect(fromStore.status == 0, "\(fromStore.stderr)")
        #expect(fromStore.stdout == fromXML.stdout)

        let json = try VellumBinary.run(["model", store, "--json"])
        let model = try ManagedObjectModel(jsonData: Data(json.stdout.utf8))
        #expect(model == (try ModelLoader.load(from: URL(fileURLWithPath: Self.fixture))))
    }

    @Test func createRefusesAnExistingFile() throws {
        let dir = TempDir()
        let path = dir.path("existing.db")
        let original = Data("precious data, not a store\n".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        let r = try VellumBinary.run(["create", path, "--model", Self.fixture])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("vellum: "))
        #expect(r.stderr.contains("already exists"))
        #expect(r.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test func createRefusesAnExistingStore() throws {
        let dir = TempDir()
        let store = dir.path("s.vellum")
        #expect(try VellumBinary.run(["create", store, "--model", Self.fixture]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let r = try VellumBinary.run(["create", store, "--model", Self.fixture])
        #expect(r.status == 1)
        #expect(r.stderr.contains("already exists"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func createWithoutModelIsAUsageError() throws {
        let dir = TempDir()
        let r = try VellumBinary.run(["create", dir.path("x.vellum")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--model"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.vellum")))
    }

    @Test func missingFile() throws {
        let dir = TempDir()
        let missing = dir.path("nope.json")
        let r = try VellumBinary.run(["model", missing])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "vellum: \(missing): no such file or directory\n")
    }

    @Test func nonModelFile() throws {
        let dir = TempDir()
        let path = dir.path("notes.txt")
        try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: path))
        let r = try VellumBinary.run(["model", path])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("vellum: \(path): not a model file"))

        let bad = dir.path("bad.json")
        try Data("{ \"entities\": 42".utf8).write(to: URL(fileURLWithPath: bad))
        let j = try VellumBinary.run(["model", bad])
        #expect(j.status == 1)
        #expect(j.stderr.hasPrefix("vellum: \(bad)"))
    }

    @Test func createWithMissingModelCreatesNothing() throws {
        let dir = TempDir()
        let r = try VellumBinary.run(["create", dir.path("s.vellum"), "--model", dir.path("missing.json")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no such file"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.vellum")))
    }

    @Test func unknownCommand() throws {
        let r = try VellumBinary.run(["frobnicate"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown command 'frobnicate'"))
        #expect(r.stderr.contains("Commands:"))
    }
}

@Suite("Model formatting")
struct ModelFormatterTests {
    /// A string default is quoted by the one escaper (`ExportText.jsonString`): quotes,
    /// backslashes and control characters are escaped, so the line stays one line.
    @Test func stringDefaultsAreQuotedByTheOneEscaper() {
        #expect(ModelFormatter.literal(.string("say \"hi\"\\\n\u{1}")) == #""say \"hi\"\\\n\u0001""#)
        #expect(ModelFormatter.literal(.integer(3)) == "3")
    }

    @Test func showsEveryDetail() throws {
        let model = try ModelBuilder()
            .entity("Base", abstract: true) { $0.attribute("created", .date) }
            .entity("Provider", parent: "Base") {
                $0.attribute("name", .string, optional: false, default: .string("x"), min: 1, max: 40, regex: "[a-z]+", indexed: true)
                $0.attribute("scratch", .integer16, transient: true)
                $0.toMany("products", "Product", inverse: "provider", ordered: true, min: 1, max: 5, deleteRule: .cascade)
                $0.unique("name")
                $0.index("byName", "name")
            }
            .entity("Product") {
                $0.attribute("price", .double, default: .double(1.5))
                $0.toOne("provider", "Provider", inverse: "products", optional: false)
            }
            .build()
        let text = ModelFormatter.describe(model)
        #expect(text.hasPrefix("3 entities\n"))
        #expect(text.contains("entity Base\n  parent: none\n  abstract: yes\n"))
        #expect(text.contains("entity Provider\n  parent: Base\n  abstract: no\n"))
        #expect(text.contains("name     string     required default=\"x\" min=1 max=40 regex=/[a-z]+/ indexed"))
        #expect(text.contains("scratch  integer16  optional transient"))
        #expect(text.contains("products  -> Product  to-many ordered optional inverse=provider delete=cascade min=1 max=5"))
        #expect(text.contains("provider  -> Provider  to-one required inverse=products delete=nullify"))
        #expect(text.contains("price  double  optional default=1.5"))
        #expect(text.contains("  uniqueness constraints:\n    (name)\n"))
        #expect(text.contains("  indexes:\n    byName: name\n"))
        #expect(text.hasSuffix("version hash: \(model.versionHash)\n"))
        // Entities sorted by name.
        let b = text.range(of: "entity Base")!.lowerBound, pd = text.range(of: "entity Product")!.lowerBound
        let pv = text.range(of: "entity Provider")!.lowerBound
        #expect(b < pd && pd < pv)
    }
}
