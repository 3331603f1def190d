/// A problem in a theme file, located precisely enough to fix it.
/// `description` reads "file:line: key 'x': reason" (the key part is omitted
/// for errors not tied to a key, e.g. a malformed line).
public struct ThemeError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var key: String?
    public var reason: String

    public init(file: String, line: Int, key: String?, reason: String) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    public var description: String {
        if let key {
            return "\(file):\(line): key '\(key)': \(reason)"
        }
        return "\(file):\(line): \(reason)"
    }
}
