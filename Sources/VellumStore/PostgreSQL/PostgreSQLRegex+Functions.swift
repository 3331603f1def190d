import Foundation

/// The server's translation, for a MATCHES pattern that is not known when the query is
/// compiled (read from a key path): `vellum_matches(pattern, text)`. PL/pgSQL reads the
/// pattern as `RegexParser` does and spells what it reads as `PostgreSQLRegex` would;
/// the classes it embeds (`\d \s \w \h \v`, `.`, `\b`) come from the same Swift sets.
/// What would need Unicode tables the function does not carry — `(?i)`, `\p{…}`,
/// POSIX and nested classes, `\X` — raises an error naming it (SQLSTATE 2201B), as
/// does an invalid pattern: never a silent answer. Constant patterns (and LIKE's)
/// never come here: `PostgreSQLDialect.regexpMatch(constantPattern:…)`.
extension PostgreSQLRegex {
    /// In `PostgreSQLFunctions.createSQL` since its version 3: a store made before gets it when opened for writing.
    static let serverFunction = "vellum_matches"

    static func functionsSQL() -> [String] {
        func inside(_ set: RegexScalarSet) -> String { items(set.intersection(textScalars)) }
        // Each class escape outside brackets and inside them, and negated.
        var cases: [String] = []
        for (letter, property) in [("d", RegexProperty.digit), ("s", .space), ("w", .word), ("h", .horizontalSpace), ("v", .lineTerminator)] {
            let set = RegexScalarSet.property(property)
            cases.append("WHEN '\(letter)' THEN CASE WHEN inside THEN \(literalSQL(inside(set))) ELSE \(literalSQL(PostgreSQLRegex.bracket(set))) END")
            cases.append("WHEN '\(letter.uppercased())' THEN CASE WHEN inside THEN \(literalSQL(inside(set.inverted))) ELSE \(literalSQL(PostgreSQLRegex.bracket(set.inverted))) END")
        }
        let classFunction = """
            CREATE OR REPLACE FUNCTION vellum_regexp_class(letter text, inside boolean) RETURNS text
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
            SELECT CASE letter COLLATE "C" \(cases.joined(separator: " ")) END
            $vellum$
            """
        var anchors: [String] = []
        for (name, a) in [("A", RegexAssertion.textStart), ("z", .textEnd), ("Z", .textEndOrFinalLineTerminator), ("^m", .lineStart),
                          ("$m", .lineEnd), ("b", .wordBoundary), ("B", .notWordBoundary)] {
            anchors.append("WHEN \(literalSQL(name)) THEN \(literalSQL(assertion(a)))")
        }
        let anchorFunction = """
            CREATE OR REPLACE FUNCTION vellum_regexp_anchor(name text) RETURNS text
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
            SELECT CASE name COLLATE "C" \(anchors.joined(separator: " ")) END
            $vellum$
            """
        let dot = literalSQL(PostgreSQLRegex.bracket(RegexScalarSet.property(.lineTerminator).inverted))
        return [classFunction, anchorFunction, charFunction, escapeFunction, repeatFunction, translateFunction(dot: dot), """
            CREATE OR REPLACE FUNCTION \(serverFunction)(p text, t text) RETURNS boolean
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
            SELECT COALESCE(t COLLATE "C" ~ vellum_regexp_are(p), false)
            $vellum$
            """]
    }

    static func literalSQL(_ s: String) -> String { PostgreSQLDialect().literal(s) }

    /// A code point as `literal(_:)` spells it (0 is never in PostgreSQL text: no character).
    static let charFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_char(code integer) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        SELECT CASE WHEN code = 0 THEN '[^\u0001-\U0010FFFF]'
            WHEN code BETWEEN 48 AND 57 OR code BETWEEN 65 AND 90 OR code BETWEEN 97 AND 122 OR code >= 160 THEN chr(code)
            WHEN code BETWEEN 33 AND 126 THEN '\' || chr(code)
            ELSE '\u' || lpad(upper(to_hex(code)), 4, '0') END
        $vellum$
        """#

    /// The code point of the escape after the `\` at `i` (`\t`, `\x{…}`, `\.`), and where it ends;
    /// NULL code for a class letter. The errors `RegexParser.classOrScalar` gives.
    static let escapeFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_escape(p text, i integer, OUT code integer, OUT next integer)
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        DECLARE
          c text := substr(p, i, 1);
          hex text;
          width integer;
        BEGIN
          next := i + 1;
          IF c = '' THEN RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a character after ''\'''; END IF;
          IF c IN ('d', 'D', 's', 'S', 'w', 'W', 'h', 'H', 'v', 'V') THEN code := NULL; RETURN; END IF;
          CASE c
          WHEN 't' THEN code := 9;
          WHEN 'n' THEN code := 10;
          WHEN 'r' THEN code := 13;
          WHEN 'f' THEN code := 12;
          WHEN 'a' THEN code := 7;
          WHEN 'e' THEN code := 27;
          WHEN '0' THEN
            code := 0;
            FOR k IN 1..3 LOOP
              EXIT WHEN substr(p, next, 1) !~ '^[0-7]$';
              code := code * 8 + substr(p, next, 1)::integer;
              next := next + 1;
            END LOOP;
          WHEN 'c' THEN
            IF substr(p, next, 1) = '' OR ascii(substr(p, next, 1)) > 127 THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a letter after \c';
            END IF;
            code := ascii(substr(p, next, 1)) & 31;
            next := next + 1;
          WHEN 'x', 'u', 'U' THEN
            IF c = 'x' AND substr(p, next, 1) = '{' THEN
              hex := substring(substr(p, next + 1) from '^[0-9A-Fa-f]{1,8}');
              IF hex IS NULL OR substr(p, next + 1 + char_length(hex), 1) <> '}' THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: hexadecimal digits and ''}'' after \x{';
              END IF;
              next := next + 2 + char_length(hex);
            ELSE
              width := CASE c WHEN 'x' THEN 2 WHEN 'u' THEN 4 ELSE 8 END;
              hex := substring(substr(p, next) from '^[0-9A-Fa-f]{' || width || '}');
              IF hex IS NULL THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: hexadecimal digits after the escape';
              END IF;
              next := next + width;
            END IF;
            IF length(ltrim(hex, '0')) > 6 OR ('x' || lpad(hex, 8, '0'))::bit(32)::integer > 1114111
               OR ('x' || lpad(hex, 8, '0'))::bit(32)::integer BETWEEN 55296 AND 57343 THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: \x' || hex || ' is not a Unicode scalar';
            END IF;
            code := ('x' || lpad(hex, 8, '0'))::bit(32)::integer;
          ELSE
            IF c ~ '^[A-Za-z0-9]$' THEN
              IF c IN ('p', 'P', 'X', 'N') THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: \' || c
                  || ' in a pattern read from a key path (PostgreSQL runs these only in a constant or $variable pattern)';
              END IF;
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: unknown escape ''\' || c || '''';
            END IF;
            IF ascii(c) > 127 THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: ''\' || c
                || ''' in a pattern read from a key path (escape only ASCII there)';
            END IF;
            code := ascii(c);
          END CASE;
        END
        $vellum$
        """#

    /// `PostgreSQLRegex.repeated`: counts above 255 as products.
    static let repeatFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_repeat(atom text, low integer, high integer) RETURNS text
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $vellum$
        DECLARE
          out text := '';
          n integer;
        BEGIN
          IF high IS NULL THEN
            IF low = 0 THEN RETURN atom || '*'; END IF;
            IF low = 1 THEN RETURN atom || '+'; END IF;
            RETURN vellum_regexp_repeat(atom, low, low) || atom || '*';
          END IF;
          IF high <= 255 AND low < high THEN
            RETURN atom || CASE WHEN low = 0 AND high = 1 THEN '?' ELSE '{' || low || ',' || high || '}' END;
          END IF;
          n := low;
          IF n > 255 THEN out := '(?:' || atom || '{255}){' || n / 255 || '}'; n := n % 255; END IF;
          out := out || CASE WHEN n = 0 THEN '' WHEN n = 1 THEN atom ELSE atom || '{' || n || '}' END;
          n := high - low;
          IF n > 255 THEN out := out || '(?:' || atom || '{0,255}){' || n / 255 || '}'; n := n % 255; END IF;
          RETURN out || CASE WHEN n = 0 THEN '' WHEN n = 1 THEN atom || '?' ELSE atom || '{0,' || n || '}' END;
        END
        $vellum$
        """#

    static func translateFunction(dot: String) -> String {
        #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_are(p text) RETURNS text
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        DECLARE
          n integer := char_length(p);
          i integer := 1;
          c text;
          out text := '';
          atom integer;                 -- where the atom a quantifier would repeat starts in out
          assertion boolean := false;   -- that atom asserts (a count of at most one is kept)
          dotall boolean := false;
          multiline boolean := false;
          starts integer[] := '{}';     -- per open group: where it starts in out, and the flags outside it
          dotalls boolean[] := '{}';
          multilines boolean[] := '{}';
          low integer;
          high integer;
          e record;
          items text;
          negate boolean;
          first boolean;
          flags_on boolean;
          inner_dotall boolean;
          inner_multiline boolean;
          digits text;
        BEGIN
          WHILE i <= n LOOP
            c := substr(p, i, 1);
            i := i + 1;
            IF c = '(' THEN
              starts := starts || char_length(out);
              dotalls := dotalls || dotall;
              multilines := multilines || multiline;
              IF substr(p, i, 1) = '?' THEN
                c := substr(p, i + 1, 1);
                IF c = ':' THEN
                  i := i + 2;
                ELSIF c = '#' THEN
                  IF strpos(substr(p, i), ')') = 0 THEN
                    RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing '')'' closing the comment';
                  END IF;
                  i := i + strpos(substr(p, i), ')');
                  starts := starts[1:cardinality(starts) - 1];
                  dotalls := dotalls[1:cardinality(dotalls) - 1];
                  multilines := multilines[1:cardinality(multilines) - 1];
                  atom := NULL;
                  CONTINUE;
                ELSIF c IN ('=', '!', '>') OR (c = '<' AND substr(p, i + 2, 1) IN ('=', '!')) THEN
                  RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: lookaround and atomic groups are not supported';
                ELSIF c = '<' THEN
                  digits := substring(substr(p, i + 2) from '^[A-Za-z0-9]*>');
                  IF digits IS NULL THEN
                    RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a group name of letters and digits, then ''>''';
                  END IF;
                  i := i + 2 + char_length(digits);
                ELSE
                  i := i + 1;
                  flags_on := true;
                  inner_dotall := dotall;
                  inner_multiline := multiline;
                  LOOP
                    c := substr(p, i, 1);
                    EXIT WHEN c IN (':', ')', '');
                    CASE c
                    WHEN '-' THEN flags_on := false;
                    WHEN 's' THEN inner_dotall := flags_on;
                    WHEN 'm' THEN inner_multiline := flags_on;
                    WHEN 'i' THEN
                      IF flags_on THEN
                        RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: (?i) in a pattern read from a key path '
                          || '(PostgreSQL runs it only in a constant or $variable pattern; MATCHES[c] folds case anywhere)';
                      END IF;
                    WHEN 'x', 'w', 'u', 'd' THEN
                      RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: the (?' || c || ') flag is not supported';
                    ELSE
                      RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: unknown flag ''' || c || '''';
                    END CASE;
                    i := i + 1;
                  END LOOP;
                  IF c = '' THEN RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing '')'''; END IF;
                  i := i + 1;
                  IF c = ')' THEN
                    -- (?s) holds for the rest of the enclosing group.
                    starts := starts[1:cardinality(starts) - 1];
                    dotalls := dotalls[1:cardinality(dotalls) - 1];
                    multilines := multilines[1:cardinality(multilines) - 1];
                    dotall := inner_dotall;
                    multiline := inner_multiline;
                    atom := NULL;
                    CONTINUE;
                  END IF;
                  dotall := inner_dotall;
                  multiline := inner_multiline;
                END IF;
              END IF;
              out := out || '(?:';
              atom := NULL;
              CONTINUE;
            END IF;
            IF c = ')' THEN
              IF cardinality(starts) = 0 THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: unmatched '')''';
              END IF;
              out := out || ')';
              atom := starts[cardinality(starts)] + 1;
              assertion := false;
              dotall := dotalls[cardinality(dotalls)];
              multiline := multilines[cardinality(multilines)];
              starts := starts[1:cardinality(starts) - 1];
              dotalls := dotalls[1:cardinality(dotalls) - 1];
              multilines := multilines[1:cardinality(multilines) - 1];
            ELSIF c = '|' THEN
              out := out || '|';
              atom := NULL;
              CONTINUE;
            ELSIF c IN ('*', '+', '?') OR (c = '{' AND substr(p, i) ~ '^[0-9]+[,}]') THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: ''' || c || ''' has nothing to repeat';
            ELSIF c = '.' THEN
              atom := char_length(out) + 1; assertion := false;
              out := out || CASE WHEN dotall THEN '.' ELSE \#(dot) END;
            ELSIF c = '^' THEN
              atom := char_length(out) + 1; assertion := true;
              out := out || CASE WHEN multiline THEN vellum_regexp_anchor('^m') ELSE '^' END;
            ELSIF c = '$' THEN
              atom := char_length(out) + 1; assertion := true;
              out := out || vellum_regexp_anchor(CASE WHEN multiline THEN '$m' ELSE 'Z' END);
            ELSIF c = '[' THEN
              negate := substr(p, i, 1) = '^';
              IF negate THEN i := i + 1; END IF;
              first := true;
              items := '';
              LOOP
                c := substr(p, i, 1);
                IF c = '' THEN
                  RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing '']'' for a character class';
                END IF;
                IF c = ']' AND NOT first THEN i := i + 1; EXIT; END IF;
                first := false;
                IF c = '[' OR (c IN ('&', '-') AND substr(p, i + 1, 1) = c) THEN
                  RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: nested classes, [:name:], && and -- '
                    || 'in a pattern read from a key path (PostgreSQL runs these only in a constant or $variable pattern)';
                END IF;
                IF c = '\' THEN
                  SELECT * INTO e FROM vellum_regexp_escape(p, i + 1);
                  IF e.code IS NULL THEN
                    items := items || vellum_regexp_class(substr(p, i + 1, 1), true);
                    i := e.next;
                    CONTINUE;
                  END IF;
                  low := e.code;
                  i := e.next;
                ELSE
                  low := ascii(c);
                  i := i + 1;
                END IF;
                high := low;
                IF substr(p, i, 1) = '-' AND substr(p, i + 1, 1) NOT IN (']', '[', '-', '') THEN
                  IF substr(p, i + 1, 1) = '\' THEN
                    SELECT * INTO e FROM vellum_regexp_escape(p, i + 2);
                    IF e.code IS NULL THEN
                      RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a character to end the range';
                    END IF;
                    high := e.code;
                    i := e.next;
                  ELSE
                    high := ascii(substr(p, i + 1, 1));
                    i := i + 2;
                  END IF;
                  IF low > high THEN
                    RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a range out of order';
                  END IF;
                END IF;
                -- NUL is never in PostgreSQL text.
                low := greatest(low, 1);
                IF high >= low THEN
                  items := items || vellum_regexp_char(low) || CASE WHEN high > low THEN '-' || vellum_regexp_char(high) ELSE '' END;
                END IF;
              END LOOP;
              atom := char_length(out) + 1; assertion := false;
              out := out || CASE WHEN items = '' THEN CASE WHEN negate THEN '.' ELSE '[^\u0001-\U0010FFFF]' END
                                 ELSE '[' || CASE WHEN negate THEN '^' ELSE '' END || items || ']' END;
            ELSIF c = '\' THEN
              c := substr(p, i, 1);
              IF c IN ('A', 'z', 'Z', 'b', 'B') THEN
                atom := char_length(out) + 1; assertion := true;
                out := out || vellum_regexp_anchor(c);
                i := i + 1;
              ELSIF c = 'Q' THEN
                i := i + 1;
                atom := CASE WHEN strpos(substr(p, i), '\E') = 1 OR i > n THEN NULL ELSE char_length(out) + 1 END;
                assertion := false;
                WHILE i <= n AND substr(p, i, 2) <> '\E' LOOP
                  out := out || vellum_regexp_char(ascii(substr(p, i, 1)));
                  i := i + 1;
                END LOOP;
                IF i <= n THEN i := i + 2; END IF;
                IF atom IS NULL THEN CONTINUE; END IF;
              ELSIF c = 'E' THEN
                i := i + 1;
                atom := NULL;
                CONTINUE;
              ELSIF c IN ('G', 'k') OR c ~ '^[1-9]$' THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: \' || c || ' is not supported';
              ELSE
                SELECT * INTO e FROM vellum_regexp_escape(p, i);
                atom := char_length(out) + 1; assertion := false;
                out := out || CASE WHEN e.code IS NULL THEN vellum_regexp_class(c, false) ELSE vellum_regexp_char(e.code) END;
                i := e.next;
              END IF;
            ELSE
              atom := char_length(out) + 1; assertion := false;
              out := out || vellum_regexp_char(ascii(c));
            END IF;
            -- A quantifier (and a lazy '?'), then no other.
            FOR k IN 1..2 LOOP
              c := substr(p, i, 1);
              IF c IN ('*', '+', '?') THEN
                low := CASE c WHEN '+' THEN 1 ELSE 0 END;
                high := CASE c WHEN '?' THEN 1 ELSE NULL END;
                i := i + 1;
              ELSIF c = '{' AND substr(p, i) ~ '^\{[0-9]+[,}]' THEN
                digits := substring(substr(p, i) from '^\{([0-9]+)');
                IF digits::numeric > 10000 THEN
                  RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'regular expression too large: repetition counts above 10000';
                END IF;
                low := digits::integer;
                i := i + 1 + char_length(digits);
                high := low;
                IF substr(p, i, 1) = ',' THEN
                  digits := substring(substr(p, i + 1) from '^[0-9]*');
                  IF COALESCE(NULLIF(digits, '')::numeric, 0) > 10000 THEN
                    RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'regular expression too large: repetition counts above 10000';
                  END IF;
                  high := CASE WHEN digits = '' THEN NULL ELSE digits::integer END;
                  i := i + 1 + char_length(digits);
                END IF;
                IF substr(p, i, 1) <> '}' THEN
                  RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing ''}'' closing the repetition';
                END IF;
                i := i + 1;
                IF high < low THEN
                  RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a repetition with its maximum below its minimum';
                END IF;
              ELSE
                EXIT;
              END IF;
              IF k = 2 THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a quantifier cannot follow another quantifier';
              END IF;
              IF substr(p, i, 1) = '?' THEN
                i := i + 1;
              ELSIF substr(p, i, 1) = '+' THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: possessive quantifiers are not supported';
              END IF;
              IF assertion THEN
                IF low = 0 THEN out := left(out, atom - 1); END IF;
              ELSE
                out := left(out, atom - 1) || vellum_regexp_repeat('(?:' || substr(out, atom) || ')', low, high);
              END IF;
            END LOOP;
          END LOOP;
          IF cardinality(starts) > 0 THEN
            RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing '')''';
          END IF;
          RETURN '^(?:' || out || ')$';
        END
        $vellum$
        """#
    }
}
