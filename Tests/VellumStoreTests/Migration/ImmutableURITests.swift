import Foundation
import Testing
@testable import VellumStore

/// The `immutable` URI that judges a file before a migration (and any open) is
/// percent-encoded by hand now; it must stay what Foundation's encoding gave, and
/// SQLite must open the file through it.
@Suite struct ImmutableURITests {
    static func foundation(_ path: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")
        return "file:" + path.addingPercentEncoding(withAllowedCharacters: allowed)! + "?immutable=1"
    }

    @Test func theURIEncodesAsFoundationDid() {
        for path in ["/tmp/a.sqlite", "/tmp/with space/é ü 日本.sqlite", "/tmp/100%?#&=+;,[]@!$'()*:.sqlite", "/tmp/~user/a-b_c.d"] {
            #expect(PersistentStore.immutableURI(path) == Self.foundation(path))
        }
    }

    @Test func sqliteOpensAStoreThroughIt() throws {
        let dir = TempDir()
        let url = dir.file("odd name é %20 #1.sqlite")
        _ = try PersistentStore(url: url, model: try ModelBuilder().entity("A") { $0.attribute("x", .string) }.build())
        let c = try Connection(path: PersistentStore.immutableURI(url.path), options: .init(readOnly: true, journalModeWAL: false))
        #expect(try c.tableExists(PersistentStore.metadataTable))
    }
}
