/// A fully resolved theme: every `ThemeRole` has a style.
public struct Theme: Sendable, Hashable {
    /// Identifier (file name stem), e.g. `solarized-dark`.
    public let name: String
    /// Human-readable name, e.g. `Solarized Dark`.
    public let displayName: String
    /// Whether #rrggbb colours may redefine palette slots to show exactly on
    /// a terminal without direct colour (`exact-colors` in the theme file).
    public let exactColors: Bool
    private let styles: [ThemeRole: Style]

    /// Fails (returns nil) unless every role is present, so a `Theme` value
    /// can always be indexed without optionals.
    public init?(name: String, displayName: String? = nil, styles: [ThemeRole: Style], exactColors: Bool = false) {
        guard ThemeRole.allCases.allSatisfy({ styles[$0] != nil }) else { return nil }
        self.init(complete: styles, name: name, displayName: displayName ?? name, exactColors: exactColors)
    }

    /// Roles missing from `styles` read as `.plain`; callers inside the
    /// module guarantee completeness.
    init(complete styles: [ThemeRole: Style], name: String, displayName: String, exactColors: Bool = false) {
        self.name = name
        self.displayName = displayName
        self.exactColors = exactColors
        self.styles = styles
    }

    public subscript(role: ThemeRole) -> Style {
        styles[role] ?? .plain
    }

    /// The same theme with all colours removed and attributes kept; used when
    /// the terminal has no colour or NO_COLOR is set and no monochrome theme
    /// could be loaded.
    public var withoutColors: Theme {
        var plain: [ThemeRole: Style] = [:]
        for role in ThemeRole.allCases {
            plain[role] = Style(attributes: self[role].attributes)
        }
        return Theme(complete: plain, name: name, displayName: displayName)
    }
}
