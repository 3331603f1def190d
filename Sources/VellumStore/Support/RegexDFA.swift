import Foundation

/// The Pike VM's thread sets turned into DFA states as the text needs them (a lazy
/// subset construction): one table lookup per ASCII character once a state is known.
/// Only for programs whose assertions are anchors at the ends of the text (`^ $ \\A \\z \\Z`
/// outside multiline mode; others depend on the characters around a position); gives
/// up (nil) past `maxStates`, and the caller runs the Pike VM instead.
struct RegexDFA {
    static let maxStates = 1_000

    let program: RegexProgram
    /// Per state: its consuming program counters, and whether it has reached `.match`.
    private var states: [(pcs: [Int32], accepts: Bool)] = []
    private var ids: [[Int32]: Int32] = [:]
    /// `asciiNext[state * 128 + byte]`: the next state, -1 while unknown; -2 is the dead state.
    private var asciiNext: [Int32] = []
    private var closureMarks: [Int32]
    private var mark: Int32 = 0

    /// `$`/`\\Z` also hold before a final line terminator: such texts go to the Pike VM.
    private let endsBeforeTerminator: Bool

    init?(_ program: RegexProgram) {
        var endsBeforeTerminator = false
        for case .assert(let a) in program.instructions {
            switch a {
            case .textStart, .textEnd: continue
            case .textEndOrFinalLineTerminator: endsBeforeTerminator = true
            default: return nil
            }
        }
        self.endsBeforeTerminator = endsBeforeTerminator
        self.program = program
        closureMarks = Array(repeating: -1, count: program.instructions.count)
    }

    /// True when the whole text matches; nil when the DFA grew too large to finish.
    mutating func matchesWhole(_ text: String, budget: Int) throws(RegexError) -> Bool? {
        if endsBeforeTerminator, let last = text.unicodeScalars.last, RegexCase.isLineTerminator(last) { return nil }
        guard var state = self.state(for: [0], atStart: true) else { return nil }
        var text = text
        var steps = 0
        var result: Bool?? = nil
        text.withUTF8 { bytes in
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                var next: Int32
                if b < 0x80 {
                    next = asciiNext[Int(state) &* 128 &+ Int(b)]
                    if next == -1 {
                        guard let s = step(state, Unicode.Scalar(b)) else { result = .some(nil); return }
                        next = s
                        asciiNext[Int(state) &* 128 &+ Int(b)] = next
                    }
                    i &+= 1
                } else {
                    let (scalar, length) = Self.decode(bytes, at: i)
                    guard let s = step(state, scalar) else { result = .some(nil); return }
                    next = s
                    i &+= length
                }
                if next == -2 { result = false; return }
                state = next
                steps &+= 1
            }
            result = states[Int(state)].accepts
        }
        if steps > budget { throw RegexError(.tooCostly, "matching a value of \(steps) characters would take more than \(budget) steps") }
        return result ?? nil
    }

    /// The state after reading `c` in `state` (-2: dead), nil when there would be too many states.
    private mutating func step(_ state: Int32, _ c: Unicode.Scalar) -> Int32? {
        var targets: [Int32] = []
        for pc in states[Int(state)].pcs where program.consumes(Int(pc), c) { targets.append(pc + 1) }
        if targets.isEmpty { return -2 }
        return self.state(for: targets, atStart: false)
    }

    /// What `starts` reach without reading: consuming steps, end anchors met on the way
    /// (followed only `atEnd`), and whether `.match` is reached.
    private mutating func closure(_ starts: [Int32], atStart: Bool, atEnd: Bool) -> (consuming: [Int32], anchors: [Int32], accepts: Bool) {
        mark += 1
        var consuming: [Int32] = [], anchors: [Int32] = []
        var accepts = false
        var stack = starts.reversed() as [Int32]
        while let pc = stack.popLast() {
            if closureMarks[Int(pc)] == mark { continue }
            closureMarks[Int(pc)] = mark
            switch program.instructions[Int(pc)] {
            case .jump(let t): stack.append(Int32(t))
            case .split(let a, let b): stack.append(Int32(b)); stack.append(Int32(a))
            case .match: accepts = true
            case .assert(.textStart): if atStart { stack.append(pc + 1) }
            case .assert: if atEnd { stack.append(pc + 1) } else { anchors.append(pc) }
            default: consuming.append(pc)
            }
        }
        return (consuming, anchors, accepts)
    }

    /// The state of the closure of `starts` (found or made), nil past `maxStates`.
    /// It accepts when the text may end there: `.match` is reached, with end anchors holding.
    private mutating func state(for starts: [Int32], atStart: Bool) -> Int32? {
        let (consuming, anchors, reached) = closure(starts, atStart: atStart, atEnd: false)
        let accepts = reached || (!anchors.isEmpty && closure(anchors.map { $0 + 1 }, atStart: atStart, atEnd: true).accepts)
        // States differ by their steps, and by whether they accept (which anchors and the start decide).
        let key = consuming + [-1, accepts ? 1 : 0, atStart ? 1 : 0] + anchors
        if let id = ids[key] { return id }
        guard states.count < Self.maxStates else { return nil }
        let id = Int32(states.count)
        states.append((consuming, accepts))
        ids[key] = id
        asciiNext.append(contentsOf: repeatElement(-1, count: 128))
        return id
    }

    /// The scalar starting at `i` of valid UTF-8 and its length in bytes.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let b = UInt32(bytes[i])
        let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
        var v = b & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { v = v << 6 | (UInt32(bytes[i + k]) & 0x3F) }
        return (Unicode.Scalar(v) ?? "\u{FFFD}", length)
    }
}
