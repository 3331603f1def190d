import Foundation

/// A string between double quotes with backslash escapes: the one escaper behind
/// JSON strings (`ExportText.jsonString`) and predicate literals (`PredicatePrinter.quote`).
enum QuotedString {
    /// JSON, or the predicate syntax, which also writes NUL as `\0` and DEL as `\u007f`.
    enum Syntax { case json, predicate }

    static func quoted(_ s: String, _ syntax: Syntax) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0" where syntax == .predicate: out += "\\0"
            default:
                if u.value < 0x20 || (u.value == 0x7f && syntax == .predicate) {
                    out += String(format: "\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
