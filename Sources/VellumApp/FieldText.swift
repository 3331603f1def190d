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
        // Empty text, and JSON null, mean no value; whether that may be stored is the core's to say.
        if text.isEmpty || (attribute.type == .transformable && text == "null") {
            guard let reason = ValueRules.violation(of: .null, for: attribute) else { return .success(.null) }
            return .failure(.init("\(attribute.name) \(reason)\(text.isEmpty ? "" : " (null is no value)")"))
        }
        if attribute.type == .binary {
            // Positions refer to the text as typed, so the untrimmed input is read.
            switch BinaryTextFormat.data(from: input) {
            case .success(let data):
                if let reason = ValueRules.violation(of: .data(data), for: attribute) { return .failure(.init("\(attribute.name): \(reason)")) }
                return .success(.data(data))
            case .failure(let error): return .failure(.init("\(attribute.name): \(error)"))
            }
        }
        // The typed text is checked (positions refer to it as typed); the trimmed text is stored.
        if let reason = ValueRules.violation(of: .string(input), for: attribute) {
            return .failure(.init("\(attribute.name) is \(reason)"))
        }
        return .success(.string(text))
    }
}
