import VellumStore

/// The stderr lines that say a store was opened read-only and what that means.
enum ReadOnlyNotice {
    /// The `--read-only` flag every reading command takes, and its help line.
    static let flag = "read-only"
    static let helpLine = "  --read-only   open the store read-only (automatic when it is not writable)"

    static func automatic(_ path: String) -> String {
        "vellum: \(path) is not writable (file or folder); opened read-only\n"
    }

    static func snapshot(_ path: String) -> String {
        "vellum: \(path) is read as it is now (no one else has it open); changes made after this are not seen\n"
    }
}
