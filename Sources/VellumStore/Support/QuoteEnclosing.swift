extension String {
    /// The text between two `quote`s, each `quote` inside it doubled (SQL literals and
    /// identifiers, CSV fields), found scalar by scalar: Foundation's `replacingOccurrences`
    /// matches whole composed character sequences, so it skipped a quote that a combining
    /// mark follows, which then ended the quoted text early (a syntax error, or SQL run
    /// from the data). O(n).
    func enclosed(in quote: Unicode.Scalar) -> String {
        precondition(quote.isASCII, "quotes are ASCII")
        let q = String(quote)
        guard utf8.contains(UInt8(quote.value)) else { return q + self + q }
        var out = String.UnicodeScalarView()
        out.append(quote)
        for c in unicodeScalars {
            out.append(c)
            if c == quote { out.append(c) }
        }
        out.append(quote)
        return String(out)
    }
}
