import Foundation

/// Sees other connections' commits to a PostgreSQL store: one listening connection
/// (`LISTEN`) on a thread of its own receives the notification each commit sends
/// (`PostgreSQLChangeNotification`: the schema and the transaction's history position),
/// then — unless its token is already at that position, a read for an earlier one having
/// covered it — reads the store's persistent history after
/// its token on the same connection and reports the new transactions object by
/// object (this store's own saves skipped: they are merged as local saves). Without
/// history, or when history after the token was pruned (or a `TRUNCATE` moved the
/// horizon), it reports `.unknown`: the view context reloads what it holds and lists
/// refetch and diff.
/// A lost connection is opened again with backoff; history after the last token is
/// then read, so nothing is missed and nothing applied twice.
final class PostgreSQLChangeMonitor: Sendable {
    private let store: PersistentStore
    private let url: PostgreSQLURL
    private let ownPID: Int32
    private let handler: @Sendable (RemoteChange) -> Void
    private let running = Locked(true)
    /// Notifications that needed no read, their position already passed (tests).
    let skippedReads = Locked(0)

    init(store: PersistentStore, url: PostgreSQLURL, ownPID: Int32, handler: @escaping @Sendable (RemoteChange) -> Void) {
        self.store = store
        self.url = url
        self.ownPID = ownPID
        self.handler = handler
    }

    /// Opens the listening connection and reads the current token (errors are thrown
    /// here), then starts the thread. `LISTEN` comes first, so no commit falls between.
    func start() throws(StoreError) {
        let connection = try Self.listen(url)
        let token: HistoryToken
        do { token = try store.currentHistoryToken(using: Connection(remote: PGEngine(connection: connection))) } catch {
            throw error as? StoreError ?? .invalidOperation("\(url): reading the history token failed: \(ErrorText.describe(error))")
        }
        let listener = Listener(connection)
        Thread.detachNewThread { [self] in run(listener.connection, token: token) }
    }

    /// The thread ends within one wait (250 ms).
    func stop() { running.withLock { $0 = false } }

    private static func listen(_ url: PostgreSQLURL) throws(StoreError) -> PGConnection {
        let c = try PGConnection(url: url)
        try c.execute("LISTEN \(PostgreSQLDialect().quote(PostgreSQLChangeNotification.channel))")
        return c
    }

    private func run(_ first: PGConnection, token start: HistoryToken) {
        var connection: PGConnection? = first
        var token = start
        var backoff: UInt32 = 50_000
        while running.withLock({ $0 }) {
            guard let c = connection else {
                usleep(backoff)
                backoff = min(backoff * 2, 1_000_000)
                connection = try? Self.listen(url)
                // Commits may have happened while the connection was down.
                if let c = connection, !read(on: c, after: &token, othersWrote: true) { connection = nil }
                continue
            }
            do {
                let schema = url.schema ?? ""
                let notices = try c.notifications(waitingMilliseconds: 250).compactMap {
                    PostgreSQLChangeNotification.notice($0, schema: schema, ownPID: ownPID)
                }
                backoff = 50_000
                // Each notice carries its transaction's position: one a read already passed needs no read.
                guard PostgreSQLChangeNotification.needsRead(notices, after: token) else {
                    if !notices.isEmpty { skippedReads.withLock { $0 += 1 } }
                    continue
                }
                if !read(on: c, after: &token, othersWrote: notices.contains(where: \.fromOthers)) { connection = nil }
            } catch {
                connection = nil
            }
        }
    }

    /// Reports what other writers committed after `token` and moves it on. False when
    /// the connection failed (the caller reconnects and reads again from the same token).
    private func read(on c: PGConnection, after token: inout HistoryToken, othersWrote: Bool) -> Bool {
        guard store.hasHistory else {
            if othersWrote { handler(.unknown) }
            return true
        }
        let db = Connection(remote: PGEngine(connection: c))
        do {
            let transactions = try store.othersTransactions(after: &token, using: db)
            if !transactions.isEmpty { handler(.transactions(transactions)) }
            return true
        } catch let error where c.isConnected && RemoteChangeMonitor.needsRefetch(error) {
            // Pruned past the token (or truncated): consumers refetch everything on `.unknown`.
            token = (try? store.currentHistoryToken(using: db)) ?? token
            handler(.unknown)
            return true
        } catch {
            return false
        }
    }

    /// Hands the listening connection to the monitor's thread, the only one that uses it afterwards.
    private final class Listener: @unchecked Sendable {
        let connection: PGConnection
        init(_ connection: PGConnection) { self.connection = connection }
    }
}
