import Foundation
import Testing
@testable import VellumStore
@testable import vellum

/// `vellum model` on Core Data stores (copies of the fixtures): the recovered model and its
/// source, `--json`, `--xcdatamodel`, `--model`; the store file never changes.
@Suite struct CoreDataModelCommandTests {
    @Test(arguments: try CoreDataFixtureCopy.storeNames())
    func printsTheRecoveredModelAndItsSource(store: String) throws {
        let copy = try CoreDataFixtureCopy(store)
        let r = try VellumBinary.run(["model", copy.url.path])
        #expect(r.status == 0, "\(r.stderr)")
        let source = store == "CoreDataBooks.sqlite" ? "inferred from the store's schema" : "the store's model cache (Z_MODELCACHE)"
        #expect(r.stdout.hasPrefix("Core Data store; model source: \(source)"))
        #expect(r.stdout.contains("version hashes: equal to the store's"))
        let recovered = try CoreDataStoreFile(path: copy.url.path).recoverModel()
        #expect(r.stdout.hasSuffix(ModelFormatter.describe(recovered.model)))
        #expect(copy.originalUnchanged())
        #expect(try copy.bytes() == Data(contentsOf: copy.original))
        #expect(copy.folderContents() == [store], "opening created files beside the store")
    }

    @Test func jsonIsVellumsModelFormat() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        let r = try VellumBinary.run(["model", copy.url.path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let model = try ManagedObjectModel(jsonData: Data(r.stdout.utf8))
        #expect(model == (try CoreDataStoreFile(path: copy.url.path).recoverModel().model))
        #expect(copy.originalUnchanged())
    }

    /// The written Xcode model reads back as the same model and is accepted by `--model`.
    @Test func xcdatamodelWritesAModelThatMatchesTheStore() throws {
        let copy = try CoreDataFixtureCopy("Moody-v2.sqlite")
        let dir = TempDir()
        let folder = dir.path("Moody.xcdatamodel")
        let w = try VellumBinary.run(["model", copy.url.path, "--xcdatamodel", folder])
        #expect(w.status == 0, "\(w.stderr)")
        let written = try XcodeModelReader.read(url: URL(fileURLWithPath: folder))
        #expect(written == (try CoreDataStoreFile(path: copy.url.path).recoverModel().model))
        let check = try VellumBinary.run(["model", copy.url.path, "--model", folder])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("Core Data store; model source: the Xcode model \(folder)"))
        // A second write does not replace the first.
        let contents = try Data(contentsOf: URL(fileURLWithPath: folder + "/contents"))
        let again = try VellumBinary.run(["model", copy.url.path, "--xcdatamodel", folder])
        #expect(again.status != 0 && again.stderr.contains("already exists"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/contents")) == contents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["contents"])
        #expect(copy.originalUnchanged())
        #expect(copy.folderContents() == ["Moody-v2.sqlite"])
    }

    @Test func aModelThatDoesNotMatchIsRefusedNamingTheEntities() throws {
        let copy = try CoreDataFixtureCopy("Moody-v2.sqlite")
        let v1 = try #require(CoreDataFixtureCopy.xcodeModel(forStore: "Moody-v1.sqlite"))
        let r = try VellumBinary.run(["model", copy.url.path, "--model", v1.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("does not match the store; entities whose version hashes differ: Mood"))
        #expect(r.stdout.isEmpty)
        #expect(copy.originalUnchanged())
    }

    @Test func coreDataOptionsAreRefusedForOtherFiles() throws {
        let fixture = SharedFixtures.directory.appendingPathComponent("models/moody-minimal.xcdatamodel.xml").path
        let r = try VellumBinary.run(["model", fixture, "--xcdatamodel", TempDir().path("x")])
        #expect(r.status == 2 && r.stderr.contains("--xcdatamodel applies to Core Data stores only"))
    }
}
