/// One theme file as parsed, before inheritance and palette references are
/// resolved. Values keep their line numbers so late errors (an unknown
/// palette name found only after merging a parent) still point at the line.
public struct ThemeDefinition: Sendable, Hashable {
    public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
        public var value: Value
        public var line: Int
    }

    /// A colour as written: literal, or a palette name resolved later.
    public enum ColorSpec: Sendable, Hashable {
        case literal(Color)
        case reference(String)
    }

    public struct StyleSpec: Sendable, Hashable {
        public var foreground: ColorSpec?
        public var background: ColorSpec?
        public var attributes: TextAttributes
    }

    public var file: String
    /// Identifier used for lookup and `inherits` (the file name stem).
    public var name: String
    /// Human-readable name from the `name =` key (defaults to `name`).
    public var displayName: String
    public init(file: String, name: String) {
        self.file = file
        self.name = name
        self.displayName = name
    }

    public var inherits: Located<String>?
    /// `exact-colors = true|false`: whether #rrggbb colours may redefine
    /// palette slots (nil: as the parent says; off at the root).
    public var exactColors: Located<Bool>?
    public var palette: [String: Located<ColorSpec>] = [:]
    public var roles: [ThemeRole: Located<StyleSpec>] = [:]
}
