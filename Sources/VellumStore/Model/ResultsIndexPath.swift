import Foundation

/// A row position in a results controller: section, then item within the section.
public struct ResultsIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(item: Int, section: Int) {
        self.section = section
        self.item = item
    }

    public static func < (a: ResultsIndexPath, b: ResultsIndexPath) -> Bool {
        (a.section, a.item) < (b.section, b.item)
    }

    public var description: String { "[\(section), \(item)]" }
}
