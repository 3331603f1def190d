import Foundation

/// How history triggers record the key of a row of a table addressed by a digest of its
/// declared key (`ForeignSchema.RowIdentity.keyDigest`, or a row whose nullable key is
/// NULL): the object ID's key is `vellum_row_version` of those values, a function only
/// Vellum's connections have, so a trigger — which runs in whatever program writes — cannot
/// compute it. It records the values instead, as the text `(v1,v2,…)` of SQLite's own
/// `quote()` of each (exact: integers, reals that read back the same, text, `X'…'` blobs,
/// NULL), in the `pk` column; the history reader digests them (`digest`), with the same
/// function, into the key the layout gives the row. The parentheses keep the text from
/// ever looking like a number to the column's INTEGER affinity.
enum RecordedKey {
    /// SQL that records the values of the SQL expressions `arguments` as that text.
    static func sql(_ arguments: [String]) -> String {
        "('(' || " + arguments.map { "quote(\($0))" }.joined(separator: " || ',' || ") + " || ')')"
    }

    /// The key the layout gives a row whose key values were recorded as `text`, digested on
    /// `connection` (whose `vellum_row_version` the layout's key is); nil when `text` is not
    /// such a record.
    static func digest(_ text: String, on connection: Connection) throws(StoreError) -> Int64? {
        guard let values = values(text), !values.isEmpty else { return nil }
        let s = try connection.cachedStatement("SELECT vellum_row_version(\(Array(repeating: "?", count: values.count).joined(separator: ", ")))")
        s.rewind()
        try s.bind(values)
        defer { s.rewind() }
        return try s.step() ? s.int64(0) : nil
    }

    /// The values of a recorded `(…)` list of `quote()` literals, or nil when it is not one.
    static func values(_ text: String) -> [Value]? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "("), bytes.last == UInt8(ascii: ")") else { return nil }
        var values: [Value] = []
        var i = 1
        let end = bytes.count - 1
        while i < end {
            if !values.isEmpty {
                guard bytes[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
            if bytes[i] == UInt8(ascii: "'") {
                // Text: '' stands for one quote.
                var text: [UInt8] = []
                i += 1
                while true {
                    guard i < end else { return nil }
                    if bytes[i] == UInt8(ascii: "'") {
                        if i + 1 < end, bytes[i + 1] == UInt8(ascii: "'") { text.append(bytes[i]); i += 2; continue }
                        i += 1
                        break
                    }
                    text.append(bytes[i])
                    i += 1
                }
                values.append(.string(String(decoding: text, as: UTF8.self)))
                continue
            }
            var j = i
            while j < end, bytes[j] != UInt8(ascii: ",") { j += 1 }
            let word = String(decoding: bytes[i..<j], as: UTF8.self)
            i = j
            if word == "NULL" {
                values.append(.null)
            } else if word.hasPrefix("X'"), word.hasSuffix("'"), word.count % 2 == 1 {
                let hex = Array(word.utf8.dropFirst(2).dropLast())
                var data = Data(capacity: hex.count / 2)
                for k in stride(from: 0, to: hex.count, by: 2) {
                    guard let byte = UInt8(String(decoding: hex[k..<k + 2], as: UTF8.self), radix: 16) else { return nil }
                    data.append(byte)
                }
                values.append(.data(data))
            } else if let n = Int64(word) {
                values.append(.integer(n))
            } else if let d = Double(word) {
                values.append(.double(d))
            } else {
                return nil
            }
        }
        return values
    }
}
