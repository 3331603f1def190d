import Testing
@testable import VellumTerminal

@Suite struct KeyDecoderTests {
    private func decode(_ text: String, flush: Bool = true) -> [Key] {
        var decoder = KeyDecoder()
        var keys = decoder.feed(Array(text.utf8))
        if flush { keys += decoder.flush() }
        return keys
    }

    @Test func plainAndUTF8Characters() {
        #expect(decode("aZ") == [.char("a"), .char("Z")])
        #expect(decode("é日😀") == [.char("é"), .char("日"), .char("😀")])
    }

    @Test func controlKeys() {
        #expect(decode("\u{1}\u{3}\u{1A}") == [.ctrl("a"), .ctrl("c"), .ctrl("z")])
        #expect(decode("\r\n\t\u{7F}\u{8}") == [.enter, .enter, .tab, .backspace, .backspace])
        #expect(decode("\u{0}") == [.ctrl(" ")])
    }

    @Test func arrowsCSIAndSS3() {
        #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(decode("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
        #expect(decode("\u{1B}[1;5A") == [.up])   // modifiers ignored
    }

    @Test func homeEndVariants() {
        #expect(decode("\u{1B}[1~\u{1B}[H\u{1B}OH\u{1B}[7~") == [.home, .home, .home, .home])
        #expect(decode("\u{1B}[4~\u{1B}[F\u{1B}OF\u{1B}[8~") == [.end, .end, .end, .end])
    }

    @Test func editingAndPaging() {
        #expect(decode("\u{1B}[5~\u{1B}[6~\u{1B}[2~\u{1B}[3~\u{1B}[Z")
                == [.pageUp, .pageDown, .insert, .delete, .backTab])
    }

    @Test func functionKeys() {
        let seq = "\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS\u{1B}[15~\u{1B}[17~\u{1B}[18~\u{1B}[19~\u{1B}[20~\u{1B}[21~\u{1B}[23~\u{1B}[24~"
        #expect(decode(seq) == (1...12).map { Key.function($0) })
        #expect(decode("\u{1B}[11~\u{1B}[[A\u{1B}[[E") == [.function(1), .function(1), .function(5)])
    }

    @Test func altKeys() {
        #expect(decode("\u{1B}x") == [.alt("x")])
        #expect(decode("\u{1B}é") == [.alt("é")])
        #expect(decode("\u{1B}\u{1}") == [.alt("a")])
    }

    @Test func loneEscapeNeedsFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingInput)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPendingInput)
        #expect(decode("\u{1B}\u{1B}[A") == [.escape, .up])
        #expect(decode("\u{1B}[") == [.alt("[")])
        #expect(decode("\u{1B}[1;") == [.escape, .char("["), .char("1"), .char(";")])
    }

    @Test func sequencesSplitAcrossReads() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, UInt8(ascii: "[")]) == [])
        #expect(decoder.feed([UInt8(ascii: "5")]) == [])
        #expect(decoder.feed([UInt8(ascii: "~"), UInt8(ascii: "q")]) == [.pageUp, .char("q")])
        let bytes = Array("日".utf8)
        #expect(decoder.feed(bytes.prefix(2)) == [])
        #expect(decoder.feed(bytes.suffix(1)) == [.char("日")])
    }

    @Test func ctrlAndAltArrowsAreWordMotions() {
        // xterm Ctrl (;5), Alt (;3) and Ctrl+Alt (;7), in both CSI forms.
        #expect(decode("\u{1B}[1;5D\u{1B}[1;5C") == [.wordLeft, .wordRight])
        #expect(decode("\u{1B}[1;3D\u{1B}[1;3C\u{1B}[1;7D") == [.wordLeft, .wordRight, .wordLeft])
        #expect(decode("\u{1B}[5D\u{1B}[;5C") == [.left, .wordRight])   // "5" alone is a count, not a modifier
        // rxvt: Ctrl is ESC O d / c, Alt is ESC + the plain arrow.
        #expect(decode("\u{1B}Od\u{1B}Oc") == [.wordLeft, .wordRight])
        #expect(decode("\u{1B}\u{1B}[D\u{1B}\u{1B}OC") == [.wordLeft, .wordRight])
        // Shift alone keeps the plain arrow; Ctrl+Up/Down stay Up/Down.
        #expect(decode("\u{1B}[1;2D\u{1B}[1;5A") == [.left, .up])
    }

    @Test func wordMotionSplitAcrossReads() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[1".utf8)) == [])
        #expect(decoder.feed(Array(";5".utf8)) == [])
        #expect(decoder.hasPendingInput)
        #expect(decoder.feed(Array("Dx".utf8)) == [.wordLeft, .char("x")])
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed(Array("[C".utf8)) == [.wordRight])
        #expect(decoder.feed(Array("\u{1B}O".utf8)) == [])
        #expect(decoder.feed(Array("d".utf8)) == [.wordLeft])
        // Two Escapes and a pause are still two Escapes.
        #expect(decoder.feed([0x1B, 0x1B]) == [])
        #expect(decoder.flush() == [.escape, .escape])
    }

    @Test func invalidUTF8() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xFF, UInt8(ascii: "a")]) == [.unknown, .char("a")])
        #expect(decoder.feed([0xE6, UInt8(ascii: "b")]) == [.unknown, .char("b")])
        #expect(decoder.feed([0xE6, 0x97]) == [])
        #expect(decoder.flush() == [.unknown, .unknown])
    }

    @Test func mouseSGR() {
        #expect(decode("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(.click, x: 9, y: 4))])
        #expect(decode("\u{1B}[<0;10;5m") == [.mouse(MouseEvent(.release, x: 9, y: 4))])
        #expect(decode("\u{1B}[<32;11;5M") == [])  // motion while pressed is dropped
        #expect(decode("\u{1B}[<64;3;4M\u{1B}[<65;3;4M")
                == [.mouse(MouseEvent(.wheelUp, x: 2, y: 3)), .mouse(MouseEvent(.wheelDown, x: 2, y: 3))])
    }

    @Test func mouseX10() {
        let bytes: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "M"), 32, 33 + 7, 33 + 2]
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes) == [.mouse(MouseEvent(.click, x: 7, y: 2))])
        // X10 has no release per button: button code 3 is "released".
        #expect(decoder.feed([0x1B, UInt8(ascii: "["), UInt8(ascii: "M"), 32 + 3, 33 + 12, 33 + 2]) == [.mouse(MouseEvent(.release, x: 12, y: 2))])
    }
}
