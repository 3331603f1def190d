import CLibPQ
import Foundation

/// A `NOTIFY` received on a channel the connection listens to.
public struct PGNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The server process of the connection whose transaction sent it.
    public let senderPID: Int32
}

extension PGConnection {
    /// The notifications that arrived, waiting up to `milliseconds` for the first
    /// (a connection that has run `LISTEN`). A lost connection is an error (`08006`).
    public func notifications(waitingMilliseconds milliseconds: Int32) throws(StoreError) -> [PGNotification] {
        var received = takeNotifications()
        guard received.isEmpty else { return received }
        var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard socket.fd >= 0 else { throw lostConnection() }
        if poll(&socket, 1, milliseconds) > 0 {
            guard PQconsumeInput(handle) == 1 else { throw lostConnection() }
            received = takeNotifications()
        }
        return received
    }

    private func takeNotifications() -> [PGNotification] {
        var out: [PGNotification] = []
        while let n = PQnotifies(handle) {
            out.append(PGNotification(channel: String(cString: n.pointee.relname), payload: String(cString: n.pointee.extra),
                                      senderPID: n.pointee.be_pid))
            PQfreemem(n)
        }
        return out
    }
}
