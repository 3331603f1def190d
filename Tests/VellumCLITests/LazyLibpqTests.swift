import Foundation
import Testing
import VellumTestSupport

/// PostgreSQL's client library is loaded only when a PostgreSQL store is opened: a
/// SQLite session starts without libpq and the twenty-odd libraries it pulls in
/// (Kerberos, LDAP, TLS), and runs on a machine that has none of them.
@Suite struct LazyLibpqTests {
    @Test func theBinaryDoesNotLinkLibpq() throws {
        let ldd = try runProgram(URL(fileURLWithPath: "/usr/bin/ldd"), [VellumBinary.url.path])
        #expect(ldd.status == 0, "\(ldd.output)")
        #expect(ldd.output.contains("libsqlite3"), "ldd lists the libraries: \(ldd.output)")
        #expect(!ldd.output.contains("libpq"), "\(ldd.output)")
        #expect(!ldd.output.contains("libkrb5") && !ldd.output.contains("libldap"), "\(ldd.output)")
    }

    /// A SQLite query runs to its end without loading libpq (the dynamic loader's own
    /// account, `LD_DEBUG=files`, names every library it opens).
    @Test func aSQLiteSessionNeverLoadsLibpq() throws {
        let dir = TempDir()
        _ = try Fixtures.openShop(dir)
        let run = try runProgram(URL(fileURLWithPath: "/usr/bin/env"),
                                 ["LD_DEBUG=files", VellumBinary.url.path, "query", dir.path("shop.sqlite"), "Product"])
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        #expect(run.output.contains("libsqlite3"), "the loader's account is there")
        #expect(!run.output.contains("libpq"), "libpq was loaded: \(run.output.split(separator: "\n").filter { $0.contains("libpq") }.prefix(3))")
    }
}
