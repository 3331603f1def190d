/// A column's right edge held down in the header: the terminal reports the press and
/// the release (not the motion between), so the column takes its new width on release.
public struct ColumnDrag: Sendable, Equatable {
    public var column: String
    /// Where the button went down.
    public var fromX: Int
    /// The column's drawn width then, and the width its values need (the layout keeps the
    /// difference: `ColumnLayout.widthChanges`).
    public var width: Int
    public var naturalWidth: Int

    /// The width change to keep after a release at `x`, within the layout's range.
    func widthChange(releasedAt x: Int) -> Int {
        let range = ColumnLayout.widthChangeRange
        let width = max(1, self.width + x - fromX)
        return min(range.upperBound, max(range.lowerBound, width - naturalWidth))
    }
}
