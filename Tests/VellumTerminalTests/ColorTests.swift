import Testing
@testable import VellumTerminal

@Suite struct ColorTests {
    @Test func hexParsing() {
        #expect(RGB(hex: "#ff8000") == RGB(255, 128, 0))
        #expect(RGB(hex: "#F80") == RGB(255, 136, 0))
        #expect(RGB(hex: "ff8000") == nil)
        #expect(RGB(hex: "#ff80") == nil)
        #expect(RGB(hex: "#gg0000") == nil)
        #expect(RGB(255, 128, 0).hex == "#ff8000")
    }

    @Test func paletteIndexRoundTrip() {
        #expect(ColorMapping.rgb(forIndex: 16) == RGB(0, 0, 0))
        #expect(ColorMapping.rgb(forIndex: 231) == RGB(255, 255, 255))
        #expect(ColorMapping.rgb(forIndex: 196) == RGB(255, 0, 0))
        #expect(ColorMapping.rgb(forIndex: 232) == RGB(8, 8, 8))
        #expect(ColorMapping.rgb(forIndex: 255) == RGB(238, 238, 238))
        // Every cube and gray entry maps back to itself.
        for i in 16...255 {
            #expect(ColorMapping.nearest256(ColorMapping.rgb(forIndex: UInt8(i))) == UInt8(i)
                    || ColorMapping.rgb(forIndex: ColorMapping.nearest256(ColorMapping.rgb(forIndex: UInt8(i))))
                       == ColorMapping.rgb(forIndex: UInt8(i)), "index \(i)")
        }
    }

    @Test func nearest256() {
        #expect(ColorMapping.nearest256(RGB(255, 0, 0)) == 196)
        #expect(ColorMapping.nearest256(RGB(0, 0, 0)) == 16)
        #expect(ColorMapping.nearest256(RGB(255, 255, 255)) == 231)
        #expect(ColorMapping.nearest256(RGB(128, 128, 128)) == 244)   // gray ramp (128)
        #expect(ColorMapping.nearest256(RGB(0x5f, 0xaf, 0xd7)) == 74)
        #expect(ColorMapping.nearest256(RGB(0x28, 0x28, 0x28)) == 235)
        #expect(ColorMapping.nearest256(RGB(0x26, 0x8b, 0xd2)) == 32)  // solarized blue
    }

    @Test func nearest16And8() {
        #expect(ColorMapping.nearest16(RGB(250, 10, 10)) == .brightRed)
        #expect(ColorMapping.nearest16(RGB(200, 0, 0)) == .red)
        #expect(ColorMapping.nearest16(RGB(20, 20, 20)) == .black)
        #expect(ColorMapping.nearest16(RGB(130, 130, 130)) == .brightBlack)
        #expect(ColorMapping.nearest8(RGB(250, 250, 250)) == .white)
        #expect(ColorMapping.nearest8(RGB(250, 10, 10)) == .red)
    }

    @Test func paletteIndexPerCapability() {
        let orange = Color.rgb(RGB(255, 135, 0))
        #expect(ColorMapping.paletteIndex(for: .default, capability: .trueColor) == -1)
        #expect(ColorMapping.paletteIndex(for: orange, capability: .none) == -1)
        #expect(ColorMapping.paletteIndex(for: orange, capability: .xterm256) == 208)
        #expect(ColorMapping.paletteIndex(for: .ansi(.brightRed), capability: .ansi8) == 1)
        #expect(ColorMapping.paletteIndex(for: .ansi(.brightRed), capability: .ansi16) == 9)
        #expect(ColorMapping.paletteIndex(for: .indexed(196), capability: .ansi16) == 9)
        #expect(ColorMapping.paletteIndex(for: .indexed(196), capability: .ansi8) == 1)
    }

    @Test func ansiNames() {
        #expect(ANSIColor.named("bright-red") == .brightRed)
        #expect(ANSIColor.named("BrightRed") == .brightRed)
        #expect(ANSIColor.named("grey") == .brightBlack)
        #expect(ANSIColor.named("blue") == .blue)
        #expect(ANSIColor.named("chartreuse") == nil)
    }

    @Test func capabilityDetection() {
        let t256 = ColorCapability.Terminfo(colors: 256, hasRGB: false)
        #expect(ColorCapability.detect(environment: [:], terminfo: t256) == .xterm256)
        #expect(ColorCapability.detect(environment: ["COLORTERM": "truecolor"], terminfo: t256) == .trueColor)
        #expect(ColorCapability.detect(environment: ["COLORTERM": "24bit"], terminfo: t256) == .trueColor)
        #expect(ColorCapability.detect(environment: [:], terminfo: .init(colors: 256, hasRGB: true)) == .trueColor)
        #expect(ColorCapability.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], terminfo: t256) == ColorCapability.none)
        #expect(ColorCapability.detect(environment: ["NO_COLOR": ""], terminfo: t256) == .xterm256)
        #expect(ColorCapability.detect(environment: [:], terminfo: .init(colors: 16, hasRGB: false)) == .ansi16)
        #expect(ColorCapability.detect(environment: [:], terminfo: .init(colors: 8, hasRGB: false)) == .ansi8)
        #expect(ColorCapability.detect(environment: [:], terminfo: .init(colors: nil, hasRGB: false)) == ColorCapability.none)
    }
}
