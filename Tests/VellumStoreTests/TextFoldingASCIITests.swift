import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// The ASCII fast path of `TextFolding.fold` (and of the SQL `vellum_fold`, which uses the
/// same bytes) gives exactly what Foundation's folding and NFC give.
@Suite struct TextFoldingASCIITests {
    static func foundationFold(_ s: String, _ c: Bool, _ d: Bool) -> String {
        var options: String.CompareOptions = []
        if c { options.insert(.caseInsensitive) }
        if d { options.insert(.diacriticInsensitive) }
        return s.folding(options: options, locale: nil).precomposedStringWithCanonicalMapping
    }

    @Test func everyASCIICharacterFoldsAsFoundationFoldsIt() throws {
        for b in 0..<128 {
            let s = String(UnicodeScalar(UInt8(b)))
            for (c, d) in [(true, false), (false, true), (true, true)] {
                #expect(TextFolding.foldedASCII(s, caseInsensitive: c) == Self.foundationFold(s, c, d), "byte \(b)")
            }
        }
        #expect(TextFolding.foldedASCII("Café", caseInsensitive: true) == nil)
    }

    @Test(arguments: [1, 2, 3])
    func randomASCIIStringsFoldAsFoundationFoldsThem(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<300 {
            let s = String(decoding: (0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0..<128, using: &rng) }, as: UTF8.self)
            for (c, d) in [(true, false), (false, true), (true, true)] {
                #expect(TextFolding.fold(s, caseInsensitive: c, diacriticInsensitive: d) == Self.foundationFold(s, c, d), "seed \(seed): \(Array(s.utf8))")
            }
        }
    }

    /// SQL's `vellum_fold` takes the byte path for ASCII text and Foundation's otherwise.
    @Test func sqlFoldsASCIIAndOtherTextAsMemoryDoes() throws {
        let db = try Connection(path: ":memory:")
        for s in ["Record NUMBER 12345", "plain", "MiXeD 42 ~!", "Ünïcödé ÉCOLE", "straße", ""] {
            for flags in [1, 2, 3] {
                let sql = try db.rows("SELECT vellum_fold(?, ?)", [.string(s), .integer(Int64(flags))]).first?.first
                #expect(sql == .string(TextFolding.fold(s, caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)), "\(s) \(flags)")
            }
        }
        #expect(try db.rows("SELECT vellum_fold(12, 1)").first?.first == .string("12"))
    }
}
