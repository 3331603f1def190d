import VellumStore

/// The stderr lines that say a store was opened read-only and what that means.
enum ReadOnlyNotice {
    /// The `--read-only` flag every reading command takes.
    static let flag = "read-only"

    static func automatic(_ path: String) -> String {
        "vellum: \(path) is not writable (file or folder); opened read-only\n"
    }

    static func snapshot(_ path: String) -> String {
        "vellum: \(path) is read as it is now (no one else has it open); changes made after this are not seen\n"
    }
}
