import Foundation
import Testing
@testable import VellumApp
import VellumStore

@Suite struct BinaryTextFormatTests {
    @Test func hexWithOrWithoutPrefixAndSpaces() {
        #expect(BinaryTextFormat.data(from: "0x0aFF") == .success(Data([0x0A, 0xFF])))
        #expect(BinaryTextFormat.data(from: "0a ff 10") == .success(Data([0x0A, 0xFF, 0x10])))
        #expect(BinaryTextFormat.data(from: "  0X 01 02 ") == .success(Data([1, 2])))
        #expect(BinaryTextFormat.data(from: "0x") == .success(Data()))
    }

    @Test func oddLengthAndBadDigitsAreRefusedWithWhereAndWhy() {
        #expect(BinaryTextFormat.data(from: "0x0af") == .failure(.oddLength(digits: 3)))
        #expect(BinaryTextFormat.data(from: "0x0g") == .failure(.badDigit("g", position: 4)))
        #expect(BinaryTextFormat.data(from: "ab cd é") == .failure(.badDigit("é", position: 7)))
        #expect(BinaryTextFormat.data(from: "١٢") == .failure(.badDigit("١", position: 1)))   // not ASCII hex
        #expect(BinaryTextFormat.ParseError.oddLength(digits: 3).description.contains("odd number of hex digits (3)"))
    }

    @Test func textRoundTrips() {
        let data = Data([0, 1, 0xAB, 0xFF])
        #expect(BinaryTextFormat.text(data) == "0x0001abff")
        #expect(BinaryTextFormat.data(from: BinaryTextFormat.text(data)) == .success(data))
        #expect(BinaryTextFormat.text(Data()) == "0x")
    }
}

@Suite struct JSONSyntaxTests {
    @Test func validJSON() {
        for text in ["{}", "[]", " {\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\n\"]} ", "\"s\"", "0", "{\n \"k\": {}\n}"] {
            #expect(JSONSyntax.firstError(in: text) == nil, "\(text)")
        }
    }

    @Test func errorsSayLineColumnAndWhat() {
        #expect(JSONSyntax.firstError(in: "{\"a\": 1,}")
                == JSONSyntaxError(line: 1, column: 9, message: "expected a \"key\" in quotes, found '}'"))
        #expect(JSONSyntax.firstError(in: "[1, 2") == JSONSyntaxError(line: 1, column: 6, message: "expected ',' or ']', found end of text"))
        #expect(JSONSyntax.firstError(in: "{\n  \"a\": x\n}") == JSONSyntaxError(line: 2, column: 8, message: "expected a value, found 'x'"))
        #expect(JSONSyntax.firstError(in: "{'a': 1}")?.column == 2)
        #expect(JSONSyntax.firstError(in: "tru")?.message == "expected true, found end of text")
        #expect(JSONSyntax.firstError(in: "01")?.message == "unexpected '1' after the value")
        #expect(JSONSyntax.firstError(in: "\"abc")?.message == "unterminated string")
        #expect(JSONSyntax.firstError(in: "")?.message == "expected a value, found end of text")
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(JSONSyntax.firstError(in: deep)?.message.contains("nested deeper") == true)
    }
}

@Suite struct FieldTextTests {
    let photo = AttributeDescription(name: "photo", type: .binary)
    let tags = AttributeDescription(name: "tags", type: .transformable)
    let requiredPhoto = AttributeDescription(name: "photo", type: .binary, isOptional: false)

    @Test func binaryEditsAsHex() {
        #expect(FieldText.editText(.data(Data([1, 2])), type: .binary) == "0x0102")
        #expect(FieldText.editText(.null, type: .binary) == "")
        #expect(FieldText.parse("0x 01 02", for: photo) == .success(.data(Data([1, 2]))))
        #expect(FieldText.parse("0x123", for: photo) == .failure(.init("photo: odd number of hex digits (3); each byte takes two")))
        #expect(FieldText.parse("0xzz", for: photo) == .failure(.init("photo: 'z' at position 3 is not a hex digit")))
    }

    @Test func binaryLengthBoundsAreBytes() {
        let key = AttributeDescription(name: "key", type: .binary, minValue: 2, maxValue: 3)
        #expect(FieldText.parse("0x01", for: key) == .failure(.init("key: must be at least 2 bytes, not 1")))
        #expect(FieldText.parse("01 02 03 04", for: key) == .failure(.init("key: must be at most 3 bytes, not 4")))
        #expect(FieldText.parse("0102", for: key) == .success(.data(Data([1, 2]))))
    }

    @Test func transformableEditsAsJSONText() {
        #expect(FieldText.editText(.string("[\"a\"]"), type: .transformable) == "[\"a\"]")
        #expect(FieldText.parse(" {\"a\": [1]} ", for: tags) == .success(.string("{\"a\": [1]}")))
        #expect(FieldText.parse("[1,", for: tags)
                == .failure(.init("tags is not valid JSON at line 1, column 4: expected a value, found end of text")))
    }

    @Test func emptyIsNullWhenOptionalAndRefusedWhenRequired() {
        #expect(FieldText.parse("  ", for: photo) == .success(.null))
        #expect(FieldText.parse("", for: tags) == .success(.null))
        #expect(FieldText.parse("", for: requiredPhoto) == .failure(.init("photo is required")))
        #expect(FieldText.parse("0x", for: requiredPhoto) == .success(.data(Data())))
    }

    @Test func otherTypesGoThroughTheStoresParser() {
        let count = AttributeDescription(name: "count", type: .integer32)
        #expect(FieldText.parse("12", for: count) == .success(.integer(12)))
        #expect(FieldText.parse("x", for: count) == ValueParser.parse("x", for: count))
        #expect(!FieldText.isEditable(.undefined) && FieldText.isEditable(.binary) && FieldText.isEditable(.transformable))
    }
}
