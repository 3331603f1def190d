import Foundation

/// Why a file was not written. Each case names the file.
public enum FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    case openStore(path: String)
    case database(path: String)
    case directory(path: String)
    case notARegularFile(path: String)
    case exists(path: String)
    case io(path: String, detail: String)

    /// The text of the current `errno`.
    public static var lastErrno: String { String(cString: strerror(errno)) }

    public var description: String {
        switch self {
        case .openStore(let p): return "\(p) is the open store; refusing to write over it"
        case .database(let p): return "\(p) is a database; refusing to write over it"
        case .directory(let p): return "\(p) is a directory"
        case .notARegularFile(let p): return "\(p) is not a regular file; refusing to write to it"
        case .exists(let p): return "\(p) already exists; refusing to replace it"
        case .io(let p, let d): return "\(p): \(d)"
        }
    }
}
