import Foundation

extension PostgreSQLFunctions {
    /// `vellum_fold(text, flags)`: flags 1 = case, 2 = diacritics, 3 = both; NULL stays
    /// NULL. ASCII text takes a fast path; other text with diacritic folding goes through
    /// `vellum_fold_marks`; both end in `vellum_nfc` (these are created first).
    static func foldFunctions() -> [String] {
        var cases: [String] = [], branches: [String] = []
        for table in FoldTable.all {
            let tail: String
            if let rule = table.marks {
                tail = "vellum_fold_marks(t, \(table.flags))"
                branches.append(marksBranch(table, rule))
            } else {
                tail = "vellum_nfc(\(translated("t", table)))"
            }
            var branch = "WHEN flags & 3 = \(table.flags) THEN "
            if table.asciiIsLowercasing || table.asciiIsUnchanged {
                // ASCII text folds to its ASCII lowercase (or itself): no table to scan.
                let ascii = table.asciiIsLowercasing ? "lower(t COLLATE \"C\")" : "t"
                branch += "CASE WHEN octet_length(t) = char_length(t) THEN \(ascii) ELSE \(tail) END"
            } else {
                branch += tail
            }
            cases.append(branch)
        }
        return [
            nfcFunction(),
            clustersFunction(),
            """
            CREATE OR REPLACE FUNCTION vellum_fold_marks(t text, flags integer) RETURNS text
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
            DECLARE x text := t;
            BEGIN
            \(branches.joined(separator: "\n"))
            RETURN t;
            END
            $vellum$
            """,
            """
            CREATE OR REPLACE FUNCTION vellum_fold(t text, flags integer) RETURNS text
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
            SELECT CASE \(cases.joined(separator: " ")) ELSE t END
            $vellum$
            """,
        ]
    }

    /// `vellum_nfc(text)`: NFC as `TextFolding` gets it from Foundation
    /// (`precomposedStringWithCanonicalMapping`), which differs from `normalize` in three
    /// ways (found by experiment, `FoldTableTests`): it neither reorders nor composes
    /// across a vowel sign that decomposes into marks (U+0F73, U+0F75, U+0F81); it does
    /// not compose a precomposed LV syllable with a trailing consonant (PostgreSQL also
    /// takes U+11A7 for one); and it composes conjoining jamo by the Hangul formula over
    /// wider ranges (L to U+1113, V to U+1176, T from U+11A7, which adds nothing, to
    /// U+11C3), a result among the surrogates becoming U+FFFD. Not followed: Foundation
    /// composes a mark with a supplementary-plane character as if it were the BMP one
    /// with the same low 16 bits (docs/postgresql.md).
    static func nfcFunction() -> String {
        let lv = bracket(Set((0..<399).map { 0xAC00 + 28 * UInt32($0) }))
        let syllable = "44032 + ((ascii(m[1]) - 4352) * 21 + ascii(m[2]) - 4449) * 28 + CASE WHEN m[3] = '' THEN 0 ELSE ascii(m[3]) - 4519 END"
        return """
            CREATE OR REPLACE FUNCTION vellum_nfc(t text) RETURNS text
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
            DECLARE x text := t;
            BEGIN
                IF x !~ '[\\u0F73\\u0F75\\u0F81\\u1100-\\u11C3]' THEN RETURN normalize(x, NFC); END IF;
                IF x ~ '[\\u1100-\\u1113][\\u1161-\\u1176]' THEN
                    SELECT string_agg(CASE WHEN m[1] IS NULL THEN m[4] ELSE chr(CASE WHEN s BETWEEN 55296 AND 57343 THEN 65533 ELSE s END) END, '' ORDER BY k) INTO x
                    FROM regexp_matches(x, '([\\u1100-\\u1113])([\\u1161-\\u1176])([\\u11A7-\\u11C3]?)|([^\\u1100-\\u1113]+|[\\u1100-\\u1113])', 'g')
                        WITH ORDINALITY AS r(m, k), LATERAL (SELECT CASE WHEN m[1] IS NULL THEN 0 ELSE \(syllable) END AS s) AS c;
                END IF;
                IF x ~ '[\\u0F73\\u0F75\\u0F81]|\(lv)[\\u11A7-\\u11C3]' THEN
                    SELECT string_agg(normalize(p, NFC), '' ORDER BY k) INTO x
                    FROM regexp_split_to_table(x, '(?=[\\u0F73\\u0F75\\u0F81])|(?<=\(lv))(?=[\\u11A7-\\u11C3])') WITH ORDINALITY AS r(p, k);
                    RETURN x;
                END IF;
                RETURN normalize(x, NFC);
            END
            $vellum$
            """
    }

    /// `x` translated and expanded by the table's base folds.
    private static func translated(_ x: String, _ table: FoldTable) -> String {
        let d = PostgreSQLDialect()
        var sql = "translate(\(x), \(d.literal(table.from)), \(d.literal(table.to)))"
        for (scalar, folded) in table.expansions { sql = "replace(\(sql), \(d.literal(String(scalar))), \(d.literal(folded)))" }
        return sql
    }

    /// The fast path of `MarkRule` in regular expressions, for text whose clusters
    /// need at most one reordering and stay under the capacity; other text goes
    /// through `vellum_fold_clusters`, the exact path, one scalar at a time.
    private static func marksBranch(_ table: FoldTable, _ rule: MarkRule) -> String {
        let d = PostgreSQLDialect()
        let marks = rule.marks, low = marks.filter { $0 < MarkRule.lowLimit }
        let zero = marks.subtracting(rule.nonzero), nonzeroMarks = marks.intersection(rule.nonzero)
        // Dropped marks: all after a stripping base (or leading mark), the first low one after another.
        var drop: [String] = []
        let alternatives: [(String, Set<UInt32>, String)] = [
            ("^", marks.intersection(rule.stripping), "+"), ("^", marks.subtracting(rule.stripping).subtracting(rule.keeping), ""),
            ("", rule.stripping.subtracting(marks), "+"),
        ]
        for (anchor, bases, more) in alternatives where !bases.isEmpty {
            drop.append("\(anchor)(\(bracket(bases)))\(more.isEmpty ? bracket(low) : bracket(marks) + more)")
        }
        drop.append("(\(bracket(marks.union(rule.stripping).union(rule.keeping), negated: true)))\(bracket(low))")
        let references = (1...drop.count).map { "\\\($0)" }.joined()
        // A leading mark folds as alone; kept marks decompose (not the leading one).
        var lead = "left(x, 1)", rest = "substr(x, 2)"
        for (scalar, folded) in rule.leads { lead = "replace(\(lead), \(d.literal(String(scalar))), \(d.literal(folded)))" }
        for (scalar, parts) in rule.decompositions { rest = "replace(\(rest), \(d.literal(String(scalar))), \(d.literal(parts)))" }
        // One pass moves class-0 marks before the others; a second reordering, or a run
        // long enough to fill a cluster, is left to the exact path.
        let longRun = MarkRule.clusterCapacity + 1 - (rule.keepingLengths.values.max() ?? 1)
        let f = table.flags
        return """
            IF flags = \(f) THEN
                IF x ~ \(d.literal(bracket(marks))) THEN
                    x := regexp_replace(x, \(d.literal(drop.joined(separator: "|"))), \(d.literal(references)), 'g');
                    x := \(lead) || \(rest);
                    x := regexp_replace(x, \(d.literal("(\(bracket(rule.nonzero))\(bracket(nonzeroMarks))*)(\(bracket(zero))+)")), '\\2\\1', 'g');
                    IF x ~ \(d.literal("\(bracket(rule.nonzero))\(bracket(zero))|\(bracket(marks)){\(longRun)}")) THEN x := vellum_fold_clusters(t, \(f)); END IF;
                END IF;
                RETURN vellum_nfc(\(translated("x", table)));
            END IF;
            """
    }

    /// `vellum_fold_clusters(text, flags)`: `MarkRule.arrange` in PL/pgSQL, one
    /// scalar at a time; the text `vellum_fold_marks` then translates.
    static func clustersFunction() -> String {
        let d = PostgreSQLDialect()
        var sets: [String] = [], leads: [String] = [], decompositions: [String] = [], lengths: [String] = []
        for table in FoldTable.all {
            guard let rule = table.marks else { continue }
            func chars(_ values: Set<UInt32>) -> String { d.literal(String(String.UnicodeScalarView(values.sorted().compactMap(Unicode.Scalar.init)))) }
            func cases(_ subject: String, _ pairs: [(String, String)], else otherwise: String) -> String {
                pairs.isEmpty ? otherwise : "CASE \(subject) \(pairs.map { "WHEN \(d.literal($0.0)) THEN \($0.1)" }.joined(separator: " ")) ELSE \(otherwise) END"
            }
            let when = "flags = \(table.flags)"
            sets.append("""
                \(sets.isEmpty ? "IF" : "ELSIF") \(when) THEN
                    marks := \(chars(rule.marks)); low := \(chars(rule.marks.filter { $0 < MarkRule.lowLimit }));
                    stripping := \(chars(rule.stripping)); keeping := \(chars(rule.keeping)); nonzero := \(chars(rule.nonzero));
                """)
            leads.append("WHEN \(when) THEN \(cases("b", rule.leads.map { (String($0.0), d.literal($0.1)) }, else: "NULL"))")
            decompositions.append("WHEN \(when) THEN \(cases("m", rule.decompositions.map { (String($0.0), d.literal($0.1)) }, else: "m"))")
            lengths.append("WHEN \(when) THEN \(cases("b", rule.keepingLengths.sorted { $0.key < $1.key }.map { (String(Unicode.Scalar($0.key)!), String($0.value)) }, else: "1"))")
        }
        return """
            CREATE OR REPLACE FUNCTION vellum_fold_clusters(t text, flags integer) RETURNS text
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
            DECLARE
                c text[] := regexp_split_to_array(t, '');
                n integer := cardinality(c);
                i integer := 1;
                x text := '';
                b text; m text; p text; zero text; other text;
                strips boolean; keeps boolean; first boolean; filled integer;
                marks text; low text; stripping text; keeping text; nonzero text;
            BEGIN
                \(sets.joined(separator: "\n"))
                ELSE RETURN t;
                END IF;
                WHILE i <= n LOOP
                    b := c[i];
                    i := i + 1;
                    strips := strpos(stripping, b) > 0;
                    keeps := strpos(keeping, b) > 0;
                    filled := CASE WHEN NOT keeps THEN 1 \(lengths.joined(separator: " ")) END;
                    zero := '';
                    other := '';
                    m := CASE WHEN strpos(marks, b) > 0 THEN CASE \(leads.joined(separator: " ")) END END;
                    IF m IS NOT NULL THEN
                        x := x || m;
                    ELSIF strpos(nonzero, b) > 0 THEN
                        other := b;
                    ELSE
                        x := x || b;
                    END IF;
                    first := true;
                    WHILE i <= n AND strpos(marks, c[i]) > 0 LOOP
                        m := c[i];
                        IF strips OR (NOT keeps AND first AND strpos(low, m) > 0) THEN
                            i := i + 1;
                            first := false;
                            CONTINUE;
                        END IF;
                        first := false;
                        m := CASE \(decompositions.joined(separator: " ")) END;
                        EXIT WHEN filled + char_length(m) > \(MarkRule.clusterCapacity);
                        filled := filled + char_length(m);
                        i := i + 1;
                        FOREACH p IN ARRAY regexp_split_to_array(m, '') LOOP
                            IF strpos(nonzero, p) > 0 THEN other := other || p; ELSE zero := zero || p; END IF;
                        END LOOP;
                    END LOOP;
                    x := x || zero || other;
                END LOOP;
                RETURN x;
            END
            $vellum$
            """
    }

    /// A regular-expression bracket of `values` (or of all else), as `\u`/`\U` escapes.
    static func bracket(_ values: Set<UInt32>, negated: Bool = false) -> String {
        func escape(_ v: UInt32) -> String {
            let hex = String(v, radix: 16, uppercase: true)
            return v <= 0xFFFF ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
        }
        var out = negated ? "[^" : "["
        let sorted = values.sorted()
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count, sorted[j + 1] == sorted[j] + 1 { j += 1 }
            out += i == j ? escape(sorted[i]) : escape(sorted[i]) + "-" + escape(sorted[j])
            i = j + 1
        }
        return out + "]"
    }
}
