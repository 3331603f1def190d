import Foundation

/// One step of a compiled regular expression (a Thompson NFA in array form).
enum RegexInstruction: Sendable {
    case scalar(UInt32)
    /// A literal compared case-insensitively (`RegexCase.fold` of both sides).
    case foldedScalar(UInt32)
    case anyScalar
    /// A scalar in `RegexProgram.classes[index]`.
    case set(Int)
    case split(Int, Int)
    case jump(Int)
    case assert(RegexAssertion)
    case match
}

/// A `RegexClass` with an ASCII bitmap, so most text never walks the class tree.
struct CompiledClass: Sendable {
    let tree: RegexClass
    let asciiLow: UInt64
    let asciiHigh: UInt64

    init(_ tree: RegexClass) {
        self.tree = tree
        var low: UInt64 = 0, high: UInt64 = 0
        for v in UInt32(0)..<128 where tree.contains(Unicode.Scalar(v)!) {
            if v < 64 { low |= 1 << UInt64(v) } else { high |= 1 << UInt64(v - 64) }
        }
        asciiLow = low
        asciiHigh = high
    }

    @inline(__always)
    func contains(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 64 { return asciiLow & (1 << UInt64(v)) != 0 }
        if v < 128 { return asciiHigh & (1 << UInt64(v - 64)) != 0 }
        return tree.contains(c)
    }
}

/// The instructions of a pattern. Counted repetitions are expanded, so the size is
/// bounded (`maxInstructions`) to keep matching time (text length × size) bounded too.
struct RegexProgram: Sendable {
    var instructions: [RegexInstruction] = []
    var classes: [CompiledClass] = []
    var usesGraphemes = false
    static let maxInstructions = 20_000

    init(_ node: RegexNode) throws(RegexError) {
        try emit(node)
        instructions.append(.match)
    }

    /// True when instruction `pc` reads `c` (false for the instructions that read nothing).
    @inline(__always)
    func consumes(_ pc: Int, _ c: Unicode.Scalar) -> Bool {
        switch instructions[pc] {
        case .scalar(let v): return c.value == v
        case .foldedScalar(let v): return RegexCase.fold(c) == v
        case .anyScalar: return true
        case .set(let i): return classes[i].contains(c)
        default: return false
        }
    }

    private mutating func append(_ i: RegexInstruction) throws(RegexError) {
        if instructions.count >= Self.maxInstructions {
            throw RegexError(.tooLarge, "more than \(Self.maxInstructions) steps once its repetitions are expanded")
        }
        instructions.append(i)
    }

    private mutating func emit(_ node: RegexNode) throws(RegexError) {
        switch node {
        case .empty: return
        case .scalar(let c, let folded): try append(folded ? .foldedScalar(RegexCase.fold(c)) : .scalar(c.value))
        case .set(let c):
            if case .property(.any) = c { try append(.anyScalar); return }
            classes.append(CompiledClass(c))
            try append(.set(classes.count - 1))
        case .assertion(let a): try append(.assert(a))
        case .grapheme:
            // One scalar, then more while not at a grapheme boundary.
            usesGraphemes = true
            try append(.anyScalar)
            let loop = instructions.count
            try append(.split(loop + 1, loop + 4))
            try append(.assert(.notGraphemeBoundary))
            try append(.anyScalar)
            try append(.jump(loop))
            try append(.assert(.graphemeBoundary))
        case .concat(let items): for item in items { try emit(item) }
        case .alternation(let branches):
            var exits: [Int] = []
            for (k, branch) in branches.enumerated() {
                if k == branches.count - 1 { try emit(branch); break }
                let split = instructions.count
                try append(.split(split + 1, -1))
                try emit(branch)
                exits.append(instructions.count)
                try append(.jump(-1))
                instructions[split] = .split(split + 1, instructions.count)
            }
            for e in exits { instructions[e] = .jump(instructions.count) }
        case .repetition(let body, let min, let max):
            for _ in 0..<min { try emit(body) }
            guard let max else {
                let loop = instructions.count
                try append(.split(loop + 1, -1))
                try emit(body)
                try append(.jump(loop))
                instructions[loop] = .split(loop + 1, instructions.count)
                return
            }
            var skips: [Int] = []
            for _ in min..<max {
                skips.append(instructions.count)
                try append(.split(instructions.count + 1, -1))
                try emit(body)
            }
            for s in skips { instructions[s] = .split(s + 1, instructions.count) }
        }
    }
}
