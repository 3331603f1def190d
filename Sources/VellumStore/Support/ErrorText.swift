import Foundation

/// The one place an `Error` becomes text for a user (browser status bar, CLI
/// stderr). Vellum's own errors describe themselves, cause first; Foundation's
/// (`CocoaError`, `POSIXError`, bridged `NSError`s) are translated so that
/// `Error Domain=NSCocoaErrorDomain Code=…` never reaches a screen.
public enum ErrorText {
    public static func describe(_ error: any Error) -> String { describe(error, naming: true) }

    /// Like `describe`, without the file path a Foundation error carries, for a
    /// message that names the file already (`model.json: cannot read file: permission denied`).
    public static func reason(_ error: any Error) -> String { describe(error, naming: false) }

    private static func describe(_ error: any Error, naming: Bool) -> String {
        if let e = error as? DecodingError { return decoding(e) }
        // Any NSError casts to CocoaError and POSIXError, so the domain decides.
        if type(of: error) is NSError.Type || error is CocoaError || error is POSIXError { return foundation(error as NSError, naming: naming) }
        // Vellum's errors (and any other Swift error) describe themselves.
        return String(describing: error)
    }

    private static func cocoa(_ e: CocoaError, naming: Bool) -> String {
        let path = naming ? e.filePath ?? e.url?.path : nil
        let subject = path.map { "\($0): " } ?? ""
        switch e.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return subject + "no such file or directory"
        case .fileReadNoPermission, .fileWriteNoPermission: return subject + "permission denied"
        case .fileWriteOutOfSpace: return subject + "disk full"
        case .fileWriteVolumeReadOnly: return subject + "read-only file system"
        case .fileWriteFileExists: return subject + "a file already exists there"
        case .fileReadCorruptFile: return subject + "the file is damaged or not in the expected format"
        case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: return subject + "not valid UTF-8 text"
        case .fileReadTooLarge: return subject + "the file is too large to read"
        case .fileReadUnknown: return subject + "the file could not be read"
        case .fileWriteUnknown: return subject + "the file could not be written"
        default:
            if let underlying = (e as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
               underlying.domain == NSPOSIXErrorDomain {
                return posix(Int32(underlying.code), path: path)
            }
            return subject + "file operation failed (Foundation error \(e.code.rawValue))"
        }
    }

    private static func posix(_ code: Int32, path: String?) -> String {
        (path.map { "\($0): " } ?? "") + String(cString: strerror(code)).lowercased()
    }

    private static func decoding(_ e: DecodingError) -> String {
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        }
        switch e {
        case .dataCorrupted(let c): return "invalid data: " + at(c)
        case .keyNotFound(let key, let c): return "missing key '\(key.stringValue)'" + (c.codingPath.isEmpty ? "" : " in " + at(c))
        case .typeMismatch(let type, let c): return "expected \(type): " + at(c)
        case .valueNotFound(let type, let c): return "missing \(type) value: " + at(c)
        @unknown default: return "invalid data"
        }
    }

    /// A bridged error: by its domain; of an unknown domain its reason if it has one, else where it came from.
    private static func foundation(_ ns: NSError, naming: Bool) -> String {
        if ns.domain == NSCocoaErrorDomain { return cocoa(CocoaError(CocoaError.Code(rawValue: ns.code), userInfo: ns.userInfo), naming: naming) }
        if ns.domain == NSPOSIXErrorDomain { return posix(Int32(ns.code), path: naming ? ns.userInfo[NSFilePathErrorKey] as? String : nil) }
        if let reason = ns.localizedFailureReason { return reason }
        if let text = ns.userInfo[NSLocalizedDescriptionKey] as? String { return text }
        return "unexpected error (\(ns.domain) \(ns.code))"
    }
}
