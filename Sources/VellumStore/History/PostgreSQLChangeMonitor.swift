import Foundation

/// Sees other connections' commits to a PostgreSQL store: one listening connection
/// (`LISTEN`) on a thread of its own receives the notification each commit sends
/// (`PostgreSQLChangeNotification`) and reports `.unknown`, so the view context
/// reloads what it holds and lists refetch and diff. This store's own saves (sent by
/// its writer's server process) are skipped: they are merged as local saves.
/// A lost connection is opened again with backoff, then reported as a change, since
/// commits may have been missed meanwhile.
final class PostgreSQLChangeMonitor: Sendable {
    private let url: PostgreSQLURL
    private let ownPID: Int32
    private let handler: @Sendable (RemoteChange) -> Void
    private let running = Locked(true)

    init(url: PostgreSQLURL, ownPID: Int32, handler: @escaping @Sendable (RemoteChange) -> Void) {
        self.url = url
        self.ownPID = ownPID
        self.handler = handler
    }

    /// Opens the listening connection (its errors are thrown here) and starts the thread.
    func start() throws(StoreError) {
        let listener = Listener(try Self.listen(url))
        Thread.detachNewThread { [self] in run(listener.connection) }
    }

    /// The thread ends within one wait (250 ms).
    func stop() { running.withLock { $0 = false } }

    private static func listen(_ url: PostgreSQLURL) throws(StoreError) -> PGConnection {
        let c = try PGConnection(url: url)
        try c.execute("LISTEN \(PostgreSQLDialect().quote(PostgreSQLChangeNotification.channel))")
        return c
    }

    private func run(_ first: PGConnection) {
        var connection: PGConnection? = first
        var backoff: UInt32 = 50_000
        while running.withLock({ $0 }) {
            guard let c = connection else {
                usleep(backoff)
                backoff = min(backoff * 2, 1_000_000)
                connection = try? Self.listen(url)
                if connection != nil { handler(.unknown) }
                continue
            }
            do {
                let received = try c.notifications(waitingMilliseconds: 250)
                if received.contains(where: { $0.payload == url.schema && $0.senderPID != ownPID }) { handler(.unknown) }
                backoff = 50_000
            } catch {
                connection = nil
            }
        }
    }

    /// Hands the listening connection to the monitor's thread, the only one that uses it afterwards.
    private final class Listener: @unchecked Sendable {
        let connection: PGConnection
        init(_ connection: PGConnection) { self.connection = connection }
    }
}
