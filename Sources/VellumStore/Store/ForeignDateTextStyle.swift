import Foundation

/// The style of a column's ISO-8601 dates (`2024-05-01`, `2024-05-01 10:00:00`,
/// `2024-05-01T10:00:00.000Z`…), taken from a stored value, so that a date written
/// back looks like the ones beside it. Written in UTC: the zone suffix is kept
/// (`Z`, `+00:00`, none); a time or fraction the style has no room for is added
/// rather than lost.
public struct ForeignDateTextStyle: Sendable, Hashable {
    public var hasTime: Bool
    /// `T` or a space between date and time.
    public var separator: Character
    public var hasSeconds: Bool
    public var fractionDigits: Int
    /// `""`, `"Z"` or `"+00:00"`.
    public var zone: String

    /// The style of `example`; nil when it is not ISO-8601.
    init?(example: String) {
        guard (try? ISODate.parse(example)) != nil else { return nil }
        let chars = Array(example)
        hasTime = chars.count > 10
        separator = hasTime ? chars[10] : " "
        hasSeconds = chars.count > 16 && chars[16] == ":"
        var digits = 0
        if hasSeconds, chars.count > 19, chars[19] == "." || chars[19] == "," {
            while 20 + digits < chars.count, chars[20 + digits].isNumber { digits += 1 }
        }
        fractionDigits = digits
        let last = example.last
        zone = last == "Z" || last == "z" ? "Z" : (hasTime && example.dropFirst(11).contains { $0 == "+" || $0 == "-" } ? "+00:00" : "")
    }

    /// `YYYY-MM-DD HH:MM:SS.SSSZ` and its shorter forms, as in `pattern`.
    init?(pattern: String) {
        let p = pattern.replacingOccurrences(of: "YYYY", with: "2000").replacingOccurrences(of: "MM-DD", with: "01-01")
            .replacingOccurrences(of: "HH:MM", with: "00:00").replacingOccurrences(of: ":SS", with: ":00")
            .replacingOccurrences(of: "S", with: "0")
        self.init(example: p)
        guard self.pattern == pattern else { return nil }
    }

    public var pattern: String {
        var p = "YYYY-MM-DD"
        guard hasTime else { return p }
        p += "\(separator)HH:MM"
        if hasSeconds { p += ":SS" + (fractionDigits > 0 ? "." + String(repeating: "S", count: fractionDigits) : "") }
        return p + zone
    }

    /// `seconds` since 1970 as text in this style (UTC).
    func text(_ seconds: Double) -> String {
        var whole = Int64(seconds.rounded(.down))
        let fraction = seconds - Double(whole)
        // As many fraction digits as the style has, more (up to 6) when the value needs them.
        var digits = fractionDigits
        while digits < 6, abs((fraction * pow(10, Double(digits))).rounded() / pow(10, Double(digits)) - fraction) >= 5e-7 { digits += 1 }
        let scale = pow(10, Double(digits))
        var scaled = Int64((fraction * scale).rounded())
        if scaled >= Int64(scale) { scaled = 0; whole += 1 }
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (y, m, d) = CivilDate.date(fromDays: days)
        var text = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
        guard hasTime || secondOfDay != 0 || scaled != 0 else { return text }
        text += "\(separator)\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2))"
        if hasSeconds || !hasTime || secondOfDay % 60 != 0 || scaled != 0 {
            text += ":" + pad(secondOfDay % 60, 2) + (digits > 0 ? "." + pad(scaled, digits) : "")
        }
        return text + zone
    }

    private func pad(_ n: Int64, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
