import Foundation
import Testing
@testable import VellumStore

/// The model version hash stored in every store file is SHA-256 of our own
/// making: it must be the standard function, bit for bit, or a store would
/// refuse its own model after a fix. FIPS 180-4's examples, and padding's
/// boundary lengths checked against the system's `sha256sum`.
@Suite struct SHA256KnownAnswerTests {
    static func hex(_ bytes: [UInt8]) -> String { SHA256.digest(bytes).map { String(format: "%02x", $0) }.joined() }

    @Test func fips180Vectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 448 bits: the padding no longer fits the message's last block.
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // 896 bits.
        #expect(SHA256.hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionAs() {
        #expect(Self.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func paddingBoundariesAgreeWithSha256sum() throws {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(Self.hex(bytes) == (try Self.sha256sum(bytes)), "seed \(seed), length \(length)")
        }
    }

    /// The CPU's SHA instructions (where this machine has them) and the Swift code give
    /// the same digest for every length around the block and padding boundaries, and for
    /// long messages of many blocks.
    @Test func theHardwareAndSwiftCompressionsAgree() {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        let lengths = Array(0...300) + [1000, 4096, 65_537]
        for length in lengths {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var swift: [UInt8] = [], chosen: [UInt8] = []
            SHA256.appendDigest(of: bytes, to: &swift, hardware: false)
            SHA256.appendDigest(of: bytes, to: &chosen)
            #expect(chosen == swift, "seed \(seed), length \(length)")
        }
        // Both paths pass the standard's vectors.
        for hardware in [false, SHA256.usesHardware] {
            var abc: [UInt8] = []
            SHA256.appendDigest(of: Array("abc".utf8), to: &abc, hardware: hardware)
            #expect(abc.map { String(format: "%02x", $0) }.joined() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "hardware \(hardware)")
        }
    }

    @Test func thisMachinesSHAInstructionsAreUsedWhenItHasThem() throws {
        let cpu = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(cpu.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init))
        #expect(SHA256.usesHardware == (flags.contains("sha_ni") && flags.contains("sse4_1") && flags.contains("ssse3")))
    }

    /// The digest `/usr/bin/sha256sum` prints for `bytes` on its standard input.
    static func sha256sum(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
