/// Where the cursor was before each jump (`:123`, `123G`, `g`, `G`), to go back
/// and forward as in a web browser. Rows of the open list; a new list starts empty.
public struct JumpList: Sendable, Equatable {
    public private(set) var back: [Int] = []
    public private(set) var forward: [Int] = []
    static let limit = 100

    public init() {}

    /// A jump from `row`: it becomes the way back, and the way forward is dropped.
    mutating func leave(_ row: Int) {
        if back.last != row { back.append(row) }
        if back.count > Self.limit { back.removeFirst() }
        forward = []
    }

    /// The row to go back to from `row`, if any.
    mutating func goBack(from row: Int) -> Int? {
        guard let target = back.popLast() else { return nil }
        forward.append(row)
        return target
    }

    mutating func goForward(from row: Int) -> Int? {
        guard let target = forward.popLast() else { return nil }
        back.append(row)
        return target
    }
}
