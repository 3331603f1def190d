import Foundation
import Testing
@testable import VellumStore

/// `PGConnection` against the test process's throwaway cluster: both URL forms,
/// every value type through both wire formats, errors with SQLSTATE, no leaked connections.
@Suite struct PGConnectionTests {
    static let values: [Value] = [
        .integer(0), .integer(Int64.max), .integer(Int64.min), .integer(-42),
        .double(0.1), .double(-3.25), .double(1e300), .double(-.infinity), .double(.leastNonzeroMagnitude),
        .decimal(Decimal(string: "-2.25")!), .decimal(Decimal(string: "12345678901234567890.123456")!), .decimal(Decimal(string: "0.0001")!),
        .decimal(0), .decimal(Decimal(string: "100000000")!),
        .string(""), .string("O'Brien \"quoted\" \\ back"), .string("e\u{301} 東京 😀"),
        .bool(true), .bool(false),
        .date(Date(timeIntervalSince1970: 0)), .date(Date(timeIntervalSince1970: 1_714_566_600.25)),
        .date(Date(timeIntervalSince1970: -86_400.5)), .date(Date(timeIntervalSince1970: 946_684_799.999999)),
        .date(Date(timeIntervalSince1970: -62_198_755_200)),  // 0001-01-03 BC
        .data(Data()), .data(Data(0...255)),
        .uuid(UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!),
    ]

    static func sqlType(_ v: Value) -> String {
        switch v {
        case .integer: return "bigint"
        case .double: return "double precision"
        case .decimal: return "numeric"
        case .string: return "text"
        case .bool: return "boolean"
        case .date: return "timestamptz"
        case .data: return "bytea"
        case .uuid: return "uuid"
        default: return "text"
        }
    }

    static func same(_ a: Value, _ b: Value) -> Bool {
        if case .date(let x) = a, case .date(let y) = b { return abs(x.timeIntervalSince1970 - y.timeIntervalSince1970) < 1e-6 }
        return a == b
    }

    @Test(arguments: [PGFormat.binary, PGFormat.text])
    func everyValueTypeRoundTrips(_ format: PGFormat) throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        let columns = Self.values.indices.map { "$\($0 + 1)::\(Self.sqlType(Self.values[$0]))" }.joined(separator: ", ")
        let row = try #require(try db.rows("SELECT \(columns)", Self.values, format: format).first)
        for (sent, got) in zip(Self.values, row) {
            #expect(Self.same(sent, got), "\(format): sent \(sent), read \(got)")
        }
        // Stored in typed columns and read back as the attribute's type.
        try db.execute("CREATE TABLE t (a smallint, b integer, c real, d jsonb, e text, f numeric(10,2))")
        try db.query("INSERT INTO t VALUES ($1, $2, $3, $4::jsonb, $5, $6)",
                     [.integer(-32768), .integer(2_147_483_647), .double(0.5), .string(#"{"k": [1, "é"]}"#), .string("https://example.com/a?b"), .decimal(Decimal(string: "12.5")!)],
                     format: format)
        let r = try db.query("SELECT a, b, c, d, e, f FROM t", format: format)
        #expect(r.value(0, 0) == .integer(-32768) && r.value(0, 1) == .integer(2_147_483_647) && r.value(0, 2) == .double(0.5))
        #expect(r.value(0, 3, as: .transformable) == .string(#"{"k": [1, "é"]}"#))
        #expect(r.value(0, 4, as: .uri) == .uri(URL(string: "https://example.com/a?b")!))
        #expect(r.value(0, 5) == .decimal(Decimal(string: "12.50")!))
        #expect(r.columnName(3) == "d" && r.rowCount == 1 && r.columnCount == 6)
        #expect(try db.scalar("SELECT NULL::bigint") == .null)
    }

    @Test func nanAndEmptyNumericRoundTrip() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().url())
        for format in [PGFormat.binary, .text] {
            let row = try #require(try db.rows("SELECT $1::float8, 'NaN'::numeric", [.double(.nan)], format: format).first)
            guard case .double(let d) = row[0], case .decimal(let n) = row[1] else { Issue.record("\(row)"); continue }
            #expect(d.isNaN && n.isNaN)
        }
    }

    @Test func tcpAndUnixSocketURLsReachTheSameSchema() throws {
        let cluster = try PostgreSQLCluster.shared()
        let database = try cluster.makeDatabase()
        let tcp = try PGConnection(url: cluster.url(database: database, schema: "Odd \"schema\""))
        #expect(try tcp.scalar("SELECT current_schema()") == .string("public"), "the URL's schema does not exist yet")
        try tcp.execute("CREATE SCHEMA \"Odd \"\"schema\"\"\"; CREATE TABLE \"Odd \"\"schema\"\"\".marker (v text)")
        try tcp.query("INSERT INTO marker VALUES ($1)", [.string("via tcp")])
        let socket = try PGConnection(url: cluster.socketURL(database: database, schema: "Odd%20%22schema%22"))
        #expect(try socket.scalar("SELECT v FROM marker") == .string("via tcp"))
        #expect(try socket.scalar("SELECT current_schema()") == .string("Odd \"schema\""))
        #expect(try socket.scalar("SELECT inet_server_addr()") == .null, "the socket URL uses the Unix socket")
        #expect(try tcp.scalar("SELECT inet_server_addr()::text") == .string("127.0.0.1/32"))
    }

    @Test func errorsCarryTheSQLStateAndMessage() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        #expect { try db.execute("SELEC 1") } throws: { error in
            guard case StoreError.postgresql(let f) = error else { return false }
            return f.sqlState == "42601" && f.message.contains("syntax error") && f.sql == "SELEC 1"
        }
        try db.execute("CREATE TABLE u (k text PRIMARY KEY)")
        try db.query("INSERT INTO u VALUES ($1)", [.string("a")])
        #expect { try db.query("INSERT INTO u VALUES ($1)", [.string("a")]) } throws: { error in
            guard case StoreError.postgresql(let f) = error else { return false }
            return f.sqlState == "23505" && f.detail?.contains("(k)=(a)") == true && "\(error)".contains("23505")
        }
        // The connection is still usable after an error.
        #expect(try db.scalar("SELECT count(*) FROM u") == .integer(1))
    }

    @Test func textWithNULIsRefusedBeforeItIsSent() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        try db.execute("CREATE TABLE n (v text)")
        for format in [PGFormat.binary, .text] {
            #expect { try db.query("INSERT INTO n VALUES ($1)", [.string("a\u{0}b")], format: format) } throws: { error in
                guard case StoreError.postgresql(let f) = error else { return false }
                return f.sqlState == "22021" && f.message.contains("NUL")
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM n") == .integer(0))
    }

    @Test func aFailedConnectionNamesTheServerButNotThePassword() throws {
        let port = try PostgreSQLCluster.freeLoopbackPort()
        let url = "postgresql://someone:s3cret@127.0.0.1:\(port)/db?schema=x"
        #expect { try PGConnection(url: url) } throws: { error in
            guard case StoreError.postgresql(let f) = error else { return false }
            return f.sqlState == "08001" && f.message.contains("127.0.0.1:\(port)") && !f.message.contains("s3cret") && f.message.contains("someone:***@")
        }
        #expect { try PGConnection(url: "/tmp/store.sqlite") } throws: { "\($0)".contains("not a PostgreSQL URL") }
        #expect { try PGConnection(url: "postgresql://h/db?schema=") } throws: { "\($0)".contains("schema parameter is empty") }
    }

    @Test func closedConnectionsLeaveNoServerSessions() async throws {
        let cluster = try PostgreSQLCluster.shared()
        let database = try cluster.makeDatabase()
        for _ in 0..<100 {
            let c = try PGConnection(url: cluster.url(database: database))
            _ = try c.query("SELECT $1::text", [.string("x")])
        }
        let observer = try PGConnection(url: cluster.url())
        let sessions = { () throws -> Int64 in
            try observer.scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = $1", [.string(database)])?.integerValue ?? -1
        }
        // Backends exit asynchronously after the client's Terminate message.
        let deadline = Date().addingTimeInterval(60)
        while try sessions() != 0 && Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(try sessions() == 0)
    }
}
