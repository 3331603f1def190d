import Foundation

/// The set of program counters alive at one text position (insertion-ordered, O(1) clear).
struct ThreadList {
    var dense: [Int32]
    var sparse: [Int32]
    var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    @inline(__always)
    mutating func insert(_ pc: Int) -> Bool {
        let s = Int(sparse[pc])
        if s < count && Int(dense[s]) == pc { return false }
        sparse[pc] = Int32(count)
        dense[count] = Int32(pc)
        count += 1
        return true
    }
}

/// One whole-string match: all threads advance one scalar at a time in lockstep.
struct PikeVM {
    let program: RegexProgram
    let scalars: [Unicode.Scalar]
    let graphemeBoundaries: [Bool]
    var steps = 0
    var stack: [Int] = []

    init(program: RegexProgram, text: String) {
        self.program = program
        scalars = Array(text.unicodeScalars)
        if program.usesGraphemes {
            var b = Array(repeating: false, count: scalars.count + 1)
            var offset = 0
            b[0] = true
            for ch in text { offset += ch.unicodeScalars.count; b[offset] = true }
            graphemeBoundaries = b
        } else {
            graphemeBoundaries = []
        }
    }

    mutating func run(budget: Int) throws(RegexError) -> Bool {
        let n = scalars.count
        var current = ThreadList(capacity: program.instructions.count)
        var next = ThreadList(capacity: program.instructions.count)
        var matched = add(0, at: 0, to: &current)
        var pos = 0
        while pos < n {
            if current.count == 0 { return false }
            let c = scalars[pos]
            next.count = 0
            matched = false
            for k in 0..<current.count {
                let pc = Int(current.dense[k])
                if program.consumes(pc, c), add(pc + 1, at: pos + 1, to: &next) { matched = true }
            }
            swap(&current, &next)
            pos += 1
            if steps > budget {
                throw RegexError(.tooCostly, "matching a value of \(n) characters would take more than \(budget) steps")
            }
        }
        return matched
    }

    /// Adds `pc` and everything reachable from it without reading a scalar; true when that reaches the end of the pattern at the end of the text.
    mutating func add(_ start: Int, at pos: Int, to list: inout ThreadList) -> Bool {
        var matched = false
        stack.append(start)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            steps += 1
            switch program.instructions[pc] {
            case .jump(let target): stack.append(target)
            case .split(let a, let b): stack.append(b); stack.append(a)
            case .assert(let a): if holds(a, at: pos) { stack.append(pc + 1) }
            case .match: if pos == scalars.count { matched = true }
            default: break
            }
        }
        return matched
    }

    func holds(_ a: RegexAssertion, at pos: Int) -> Bool {
        let n = scalars.count
        let prev = pos > 0 ? scalars[pos - 1] : nil
        let next = pos < n ? scalars[pos] : nil
        switch a {
        case .textStart: return pos == 0
        case .textEnd: return pos == n
        case .textEndOrFinalLineTerminator:
            if pos == n { return true }
            if pos == n - 1, let next, RegexCase.isLineTerminator(next) { return true }
            return pos == n - 2 && scalars[n - 2] == "\r" && scalars[n - 1] == "\n"
        case .lineStart:
            guard let prev else { return true }
            return pos < n && RegexCase.isLineTerminator(prev) && !(prev == "\r" && next == "\n")
        case .lineEnd:
            guard let next else { return true }
            return RegexCase.isLineTerminator(next) && !(prev == "\r" && next == "\n")
        case .wordBoundary, .notWordBoundary:
            let before = prev.map { RegexProperty.word.contains($0) } ?? false
            let after = next.map { RegexProperty.word.contains($0) } ?? false
            return (before != after) == (a == .wordBoundary)
        case .graphemeBoundary: return graphemeBoundaries[pos]
        case .notGraphemeBoundary: return !graphemeBoundaries[pos]
        }
    }
}
