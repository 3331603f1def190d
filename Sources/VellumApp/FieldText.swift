import Foundation
import VellumStore

/// The field editor's text for a value, and the value for typed text.
/// `ValueParser` (the store's, shared with the CLI) reads the scalar types and
/// refuses binary and transformable as not text; the editor reads those here:
/// binary as hex (`BinaryTextFormat`), transformable as the JSON text it is
/// stored as, checked with a line and column for the first error.
public enum FieldText {
    /// Types the editor cannot offer as text (undefined has no known form).
    public static func isEditable(_ type: AttributeType) -> Bool { type != .undefined }

    /// What the editor starts with for `value` of an attribute of `type`.
    public static func editText(_ value: Value, type: AttributeType) -> String {
        if type == .binary, case .data(let data) = value { return BinaryTextFormat.text(data) }
        return ValueParser.editText(value)
    }

    /// A line for the status bar saying how to type a value of `attribute`, when that is not obvious.
    public static func hint(for attribute: AttributeDescription) -> String? {
        switch attribute.type {
        case .binary: return "\(attribute.name): hex bytes, e.g. 0x0aff or 0a ff\(attribute.isOptional ? "; empty = null" : "")"
        case .transformable: return "\(attribute.name): JSON\(attribute.isOptional ? "; empty or null = no value" : "")"
        default: return nil
        }
    }

    /// The value `input` stands for, or why it cannot be stored (nothing is written then).
    public static func parse(_ input: String, for attribute: AttributeDescription) -> Result<Value, ValueParseError> {
        guard attribute.type == .binary || attribute.type == .transformable else {
            return ValueParser.parse(input, for: attribute)
        }
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty {
            return attribute.isOptional ? .success(.null) : .failure(.init("\(attribute.name) is required"))
        }
        if attribute.type == .binary {
            // Positions refer to the text as typed, so the untrimmed input is read.
            switch BinaryTextFormat.data(from: input) {
            case .success(let data):
                if let reason = lengthViolation(data, attribute) { return .failure(.init("\(attribute.name): \(reason)")) }
                return .success(.data(data))
            case .failure(let error): return .failure(.init("\(attribute.name): \(error)"))
            }
        }
        if let error = JSONSyntax.firstError(in: input) {
            return .failure(.init("\(attribute.name) is not valid JSON at \(error)"))
        }
        // JSON null is no value: stored as NULL, never as the text 'null'.
        if text == "null" {
            return attribute.isOptional ? .success(.null) : .failure(.init("\(attribute.name) is required (null is no value)"))
        }
        return .success(.string(text))
    }

    /// The model's min/max for binary is a length in bytes; said here so the
    /// editor refuses it before the save's validation would.
    private static func lengthViolation(_ data: Data, _ attribute: AttributeDescription) -> String? {
        if let min = attribute.minValue, Double(data.count) < min { return "must be at least \(Int(min)) bytes, not \(data.count)" }
        if let max = attribute.maxValue, Double(data.count) > max { return "must be at most \(Int(max)) bytes, not \(data.count)" }
        return nil
    }
}
