/// The semantic slots a theme must fill. The app styles by role, never by
/// colour, so every theme (including monochrome) stays consistent.
public enum ThemeRole: String, Sendable, Hashable, CaseIterable {
    case background
    case text
    case header
    case selection
    case cursor
    /// Values changed live (e.g. by another process) since last shown.
    case highlight
    case error
    case status
    case statusText
    case border
    case dim
    case accent
    case warning
}
