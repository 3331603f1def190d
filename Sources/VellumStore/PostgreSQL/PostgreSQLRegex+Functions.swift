import Foundation

/// The server's translation, for a MATCHES pattern that is not known when the query is
/// compiled (read from a key path): `vellum_matches(pattern, text)`. PL/pgSQL reads the
/// pattern as `RegexParser` does and spells what it reads as `PostgreSQLRegex` would;
/// every class (`\d \s \w \h \v`, `\p{…}`, `[:name:]`, `(?i)`'s case partners), `.`,
/// `\b` and `\X` come from the same Swift sets and rules (`PostgreSQLRegex+ServerClasses`).
/// An invalid pattern, or one memory refuses (`\p{Greek}`, lookaround), raises an error
/// naming it (SQLSTATE 2201B): never a silent answer. Constant patterns (and LIKE's)
/// never come here: `PostgreSQLDialect.regexpMatch(constantPattern:…)`.
extension PostgreSQLRegex {
    /// In `PostgreSQLFunctions.createSQL` since its version 3 (4: every class and `(?i)`):
    /// a store made before gets it when opened for writing.
    static let serverFunction = "vellum_matches"

    static func functionsSQL() -> [String] {
        var anchors: [String] = []
        for (name, a) in [("A", RegexAssertion.textStart), ("z", .textEnd), ("Z", .textEndOrFinalLineTerminator), ("^m", .lineStart),
                          ("$m", .lineEnd), ("b", .wordBoundary), ("B", .notWordBoundary)] {
            anchors.append("WHEN \(literalSQL(name)) THEN \(literalSQL(assertion(a)))")
        }
        anchors.append("WHEN 'X' THEN \(literalSQL(GraphemeClasses.shared.cluster))")
        // Not STRICT, so that PostgreSQL inlines it and folds a constant name away.
        let anchorFunction = """
            CREATE OR REPLACE FUNCTION vellum_regexp_anchor(name text) RETURNS text
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
            SELECT CASE name COLLATE "C" \(anchors.joined(separator: " ")) END
            $vellum$
            """
        let dot = literalSQL(PostgreSQLRegex.bracket(RegexScalarSet.property(.lineTerminator).inverted))
        // Version 3's, whose signatures changed.
        let replaced = "DROP FUNCTION IF EXISTS vellum_regexp_class(text, boolean), vellum_regexp_escape(text, integer)"
        // The SQL functions' bodies are checked when created: what they call comes first.
        return [replaced] + classFunctionsSQL() + [anchorFunction, charFunction, literalFunction, escapeFunction, repeatFunction, translateFunction(dot: dot), """
            CREATE OR REPLACE FUNCTION \(serverFunction)(p text, t text) RETURNS boolean
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
            SELECT COALESCE(t COLLATE "C" ~ vellum_regexp_are(p), false)
            $vellum$
            """]
    }

    static func literalSQL(_ s: String) -> String { PostgreSQLDialect().literal(s) }

    /// A code point as `literal(_:)` spells it (0 is never in PostgreSQL text: no character).
    /// Not STRICT (NULL gives NULL all the same), so that PostgreSQL inlines it.
    static let charFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_char(code integer) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
        SELECT CASE WHEN code = 0 THEN '[^\u0001-\U0010FFFF]'
            WHEN code BETWEEN 48 AND 57 OR code BETWEEN 65 AND 90 OR code BETWEEN 97 AND 122 OR code >= 160 THEN chr(code)
            WHEN code BETWEEN 33 AND 126 THEN '\' || chr(code)
            ELSE '\u' || lpad(upper(to_hex(code)), 4, '0') END
        $vellum$
        """#

    /// A literal character, and under `(?i)` its case partners (`RegexCase.variants`).
    /// Inlined too: the planner folds the partners' jsonb into the caller's plan once.
    static let literalFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_literal(code integer, caseless boolean) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
        SELECT CASE WHEN caseless AND vellum_regexp_data() -> 'orbits' ? code::text
            THEN '[' || (vellum_regexp_data() -> 'orbits' ->> code::text) || ']' ELSE vellum_regexp_char(code) END
        $vellum$
        """#

    /// The escape after the `\` at `i`, as `RegexParser.classOrScalar` reads it, and where it
    /// ends: the code point of `\t`, `\x{…}`, `\.`, or (NULL code) the class of `\d`, `\p{…}`
    /// as `vellum_regexp_property` gives it. The errors memory gives.
    static let escapeFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_escape(p text, i integer, caseless boolean,
                                                        OUT code integer, OUT items text, OUT negated boolean, OUT next integer)
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        DECLARE
          c text := substr(p, i, 1);
          hex text;
          width integer;
          name text;
        BEGIN
          next := i + 1;
          IF c = '' THEN RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a character after ''\'''; END IF;
          IF c IN ('d', 'D', 's', 'S', 'w', 'W', 'h', 'H', 'v', 'V') THEN
            -- Under (?i) closed, then negated (`\D`).
            items := vellum_regexp_data() -> 'sets'
              ->> (vellum_regexp_data() -> 'escapes' -> lower(c COLLATE "C") ->> CASE WHEN caseless THEN 1 ELSE 0 END)::integer;
            negated := c <> lower(c COLLATE "C");
            RETURN;
          END IF;
          IF c IN ('p', 'P') THEN
            IF substr(p, next, 1) = '{' THEN
              IF strpos(substr(p, next), '}') = 0 THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing ''}'' after \' || c || '{';
              END IF;
              name := substr(p, next + 1, strpos(substr(p, next), '}') - 2);
              next := next + 2 + char_length(name);
            ELSE
              name := substr(p, next, 1);
              next := next + char_length(name);
            END IF;
            SELECT * INTO items, negated FROM vellum_regexp_property(name, c = 'P', caseless);
            IF items IS NULL THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: the Unicode property ''' || name
                || ''' is not supported (scripts and blocks are not; general categories such as L, Lu, Nd, P and binary properties such as Alphabetic, White_Space are)';
            END IF;
            RETURN;
          END IF;
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
            IF c = 'N' THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: named characters (\N{…}) are not supported';
            END IF;
            -- An escaped letter or ASCII digit without a meaning is an error; anything else stands for itself.
            IF vellum_regexp_alnum(c) THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: unknown escape ''\' || c || '''';
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
          flags integer := 0;           -- 1: (?s), 2: (?m), 4: (?i)
          starts integer[] := '{}';     -- per open group: where it starts in out, and the flags outside it
          outer_flags integer[] := '{}';
          low integer;
          high integer;
          e record;
          b record;
          flags_on boolean;
          inner_flags integer;
          flag integer;
          digits text;
        BEGIN
          WHILE i <= n LOOP
            c := substr(p, i, 1);
            i := i + 1;
            IF c = '(' THEN
              starts := starts || char_length(out);
              outer_flags := outer_flags || flags;
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
                  outer_flags := outer_flags[1:cardinality(outer_flags) - 1];
                  atom := NULL;
                  CONTINUE;
                ELSIF c IN ('=', '!', '>') OR (c = '<' AND substr(p, i + 2, 1) IN ('=', '!')) THEN
                  RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: lookaround and atomic groups are not supported';
                ELSIF c = '<' THEN
                  digits := substring(substr(p, i + 2) from '^[^>]*>');
                  IF digits IS NULL OR NOT vellum_regexp_alnum(left(digits, -1)) THEN
                    RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: a group name of letters and digits, then ''>''';
                  END IF;
                  i := i + 2 + char_length(digits);
                ELSE
                  i := i + 1;
                  flags_on := true;
                  inner_flags := flags;
                  LOOP
                    c := substr(p, i, 1);
                    EXIT WHEN c IN (':', ')', '');
                    IF c = '-' THEN
                      flags_on := false;
                    ELSIF c IN ('s', 'm', 'i') THEN
                      flag := CASE c WHEN 's' THEN 1 WHEN 'm' THEN 2 ELSE 4 END;
                      inner_flags := CASE WHEN flags_on THEN inner_flags | flag ELSE inner_flags & ~flag END;
                    ELSIF c IN ('x', 'w', 'u', 'd') THEN
                      RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'unsupported regular expression: the (?' || c || ') flag is not supported';
                    ELSE
                      RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: unknown flag ''' || c || '''';
                    END IF;
                    i := i + 1;
                  END LOOP;
                  IF c = '' THEN RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing '')'''; END IF;
                  i := i + 1;
                  flags := inner_flags;
                  IF c = ')' THEN
                    -- (?s) holds for the rest of the enclosing group.
                    starts := starts[1:cardinality(starts) - 1];
                    outer_flags := outer_flags[1:cardinality(outer_flags) - 1];
                    atom := NULL;
                    CONTINUE;
                  END IF;
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
              flags := outer_flags[cardinality(outer_flags)];
              starts := starts[1:cardinality(starts) - 1];
              outer_flags := outer_flags[1:cardinality(outer_flags) - 1];
            ELSIF c = '|' THEN
              out := out || '|';
              atom := NULL;
              CONTINUE;
            ELSIF c IN ('*', '+', '?') OR (c = '{' AND substr(p, i) ~ '^[0-9]+[,}]') THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: ''' || c || ''' has nothing to repeat';
            ELSIF c = '.' THEN
              atom := char_length(out) + 1; assertion := false;
              out := out || CASE WHEN flags & 1 <> 0 THEN '.' ELSE \#(dot) END;
            ELSIF c = '^' THEN
              atom := char_length(out) + 1; assertion := true;
              out := out || CASE WHEN flags & 2 <> 0 THEN vellum_regexp_anchor('^m') ELSE '^' END;
            ELSIF c = '$' THEN
              atom := char_length(out) + 1; assertion := true;
              out := out || vellum_regexp_anchor(CASE WHEN flags & 2 <> 0 THEN '$m' ELSE 'Z' END);
            ELSIF c = '[' THEN
              SELECT * INTO b FROM vellum_regexp_bracket(p, i, flags & 4 <> 0);
              atom := char_length(out) + 1; assertion := false;
              out := out || b.expr;
              i := b.next;
            ELSIF c = '\' THEN
              c := substr(p, i, 1);
              IF c IN ('A', 'z', 'Z', 'b', 'B') THEN
                atom := char_length(out) + 1; assertion := true;
                out := out || vellum_regexp_anchor(c);
                i := i + 1;
              ELSIF c = 'X' THEN
                atom := char_length(out) + 1; assertion := false;
                out := out || vellum_regexp_anchor(c);
                i := i + 1;
              ELSIF c = 'Q' THEN
                i := i + 1;
                atom := CASE WHEN strpos(substr(p, i), '\E') = 1 OR i > n THEN NULL ELSE char_length(out) + 1 END;
                assertion := false;
                WHILE i <= n AND substr(p, i, 2) <> '\E' LOOP
                  out := out || vellum_regexp_literal(ascii(substr(p, i, 1)), flags & 4 <> 0);
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
                SELECT * INTO e FROM vellum_regexp_escape(p, i, flags & 4 <> 0);
                atom := char_length(out) + 1; assertion := false;
                out := out || CASE WHEN e.code IS NULL THEN vellum_regexp_set(e.items, e.negated) ELSE vellum_regexp_literal(e.code, flags & 4 <> 0) END;
                i := e.next;
              END IF;
            ELSE
              atom := char_length(out) + 1; assertion := false;
              out := out || vellum_regexp_literal(ascii(c), flags & 4 <> 0);
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
