extension String {
    /// The text with every `quote` doubled (SQL literals and identifiers, CSV fields),
    /// found scalar by scalar: Foundation's `replacingOccurrences` matches whole composed
    /// character sequences, so it skipped a quote that a combining mark follows, which
    /// then ended the quoted text early (a syntax error, or SQL run from the data).
    /// O(n); the text itself when it holds no quote.
    func doublingEvery(_ quote: Unicode.Scalar) -> String {
        precondition(quote.isASCII, "quotes are ASCII")
        guard utf8.contains(UInt8(quote.value)) else { return self }
        var out = String.UnicodeScalarView()
        for c in unicodeScalars {
            out.append(c)
            if c == quote { out.append(c) }
        }
        return String(out)
    }
}
