import Foundation

/// A PostgreSQL store's address: `postgresql://user[:password]@host:port/db?schema=name`,
/// or the Unix-socket forms `postgresql://user@%2Frun%2Fpostgresql/db` and
/// `postgresql:///db?host=/run/postgresql`. libpq reads everything but `schema`,
/// which Vellum takes out and makes the connection's search path.
public struct PostgreSQLURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as given, `schema` included.
    public let text: String
    /// What libpq is given: the URL without `schema`.
    public let connectionString: String
    /// The schema holding the store's tables (nil: the server's default search path).
    public let schema: String?

    /// True for text that names a PostgreSQL store rather than a file.
    public static func isPostgreSQL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    public init(_ text: String) throws(StoreError) {
        guard Self.isPostgreSQL(text) else {
            throw .invalidOperation("\(text): not a PostgreSQL URL (it must start with postgresql://)")
        }
        self.text = text
        guard let q = text.firstIndex(of: "?") else {
            connectionString = text
            schema = nil
            return
        }
        var kept: [Substring] = []
        var schema: String?
        for item in text[text.index(after: q)...].split(separator: "&", omittingEmptySubsequences: true) {
            guard item.hasPrefix("schema=") else { kept.append(item); continue }
            let raw = item.dropFirst("schema=".count)
            guard let name = String(raw).removingPercentEncoding, !name.isEmpty else {
                throw .invalidOperation("\(Self.redacted(text)): the schema parameter is empty or badly percent-encoded")
            }
            schema = name
        }
        self.schema = schema
        connectionString = String(text[..<q]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    /// The URL with any password replaced by `***`, for messages.
    public var description: String { Self.redacted(text) }

    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
              let colon = rest[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<rest.index(after: colon)]) + "***" + String(rest[at...])
    }
}
