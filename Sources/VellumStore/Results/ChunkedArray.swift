/// An array stored as a list of chunks (up to 2 × `chunkSize` elements each), so
/// that inserting or removing in the middle of a million-element list moves at
/// most a chunk, not half the list.
///
/// Complexity: `subscript` O(log c), `insert(_:at:)`/`remove(at:)` O(chunkSize + c),
/// `append` amortized O(1), iteration O(1) per element — where c = count / chunkSize.
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    static var chunkSize: Int { 1024 }

    private var chunks: [[Element]] = []
    /// `starts[k]` is the absolute index of `chunks[k][0]`.
    private var starts: [Int] = []
    private(set) var count = 0

    init() {}

    init<S: Sequence>(_ elements: S) where S.Element == Element {
        for e in elements { append(e) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The chunk holding absolute index `i`, and the offset within it.
    private func locate(_ i: Int) -> (chunk: Int, offset: Int) {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        return (lo, i - starts[lo])
    }

    subscript(i: Int) -> Element {
        get {
            precondition(i >= 0 && i < count, "ChunkedArray index out of range")
            let (c, o) = locate(i)
            return chunks[c][o]
        }
        set {
            precondition(i >= 0 && i < count, "ChunkedArray index out of range")
            let (c, o) = locate(i)
            chunks[c][o] = newValue
        }
    }

    mutating func reserveCapacity(_ n: Int) {
        chunks.reserveCapacity(n / Self.chunkSize + 1)
        starts.reserveCapacity(n / Self.chunkSize + 1)
    }

    mutating func append(_ e: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkSize {
            starts.append(count)
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
        }
        chunks[chunks.count - 1].append(e)
        count += 1
    }

    mutating func insert(_ e: Element, at i: Int) {
        precondition(i >= 0 && i <= count, "ChunkedArray insertion index out of range")
        if i == count { append(e); return }
        let (c, o) = locate(i)
        chunks[c].insert(e, at: o)
        for k in (c + 1)..<starts.count { starts[k] += 1 }
        count += 1
        if chunks[c].count > 2 * Self.chunkSize {
            // Split a full chunk in two.
            let tail = Array(chunks[c][Self.chunkSize...])
            chunks[c].removeLast(tail.count)
            chunks.insert(tail, at: c + 1)
            starts.insert(starts[c] + Self.chunkSize, at: c + 1)
        }
    }

    @discardableResult
    mutating func remove(at i: Int) -> Element {
        precondition(i >= 0 && i < count, "ChunkedArray index out of range")
        let (c, o) = locate(i)
        let e = chunks[c].remove(at: o)
        for k in (c + 1)..<starts.count { starts[k] -= 1 }
        count -= 1
        if chunks[c].isEmpty {
            chunks.remove(at: c)
            starts.remove(at: c)
        }
        return e
    }

    struct Iterator: IteratorProtocol {
        fileprivate let chunks: [[Element]]
        fileprivate var chunk = 0
        fileprivate var offset = 0
        mutating func next() -> Element? {
            while chunk < chunks.count {
                if offset < chunks[chunk].count {
                    defer { offset += 1 }
                    return chunks[chunk][offset]
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(chunks: chunks) }
}
