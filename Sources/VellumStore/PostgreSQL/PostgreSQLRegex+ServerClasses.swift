import Foundation

/// The classes `vellum_matches` reads from a pattern only known per row: `\p{…}`, POSIX
/// `[:name:]`, `\d \s \w \h \v`, nested brackets, `&&`, `--`, and `(?i)`'s case partners.
/// The server holds no Unicode tables of its own: `vellum_regexp_data()` returns, as one
/// jsonb made from the same Swift sets as memory's (`RegexScalarSet`), each class spelled
/// as bracket items (`PostgreSQLRegex.items`) and each scalar's case partners. Set
/// operations need no arithmetic on ranges: each class becomes an ARE matching one
/// character (a bracket, an alternation of such, `(?=A)B` for `A && B`, `(?!B)A` for
/// `A -- B`, `(?!A).` for a negation).
extension PostgreSQLRegex {
    /// The jsonb of `vellum_regexp_data()`, made once per process:
    /// - `sets`: bracket items (scalars PostgreSQL text can hold), each spelling once;
    /// - `names`: each property name `vellum_regexp_property` looks up (loosely spelled as
    ///   `RegexProperty.named` matches it: `l`, `gc=l`, `=alphabetic` for `Alphabetic=…`)
    ///   → the indexes in `sets` of the class, its case closure (`(?i)`) and the
    ///   scalars whose case partners are all in it (`(?i)\P{X=No}`: not the closure of the rest);
    /// - `escapes`: `d s w h v` (`\d`…) → the same indexes;
    /// - `orbits`: each scalar with case partners (decimal) → the items of all of them;
    /// - `codes`: those scalars in order.
    static let serverData: String = {
        var sets: [String] = [], index: [String: Int] = [:]
        func id(_ set: RegexScalarSet) -> Int {
            let text = items(set.intersection(textScalars))
            if let known = index[text] { return known }
            index[text] = sets.count
            sets.append(text)
            return sets.count - 1
        }
        // Each property is a scan of every scalar: the cores share them.
        let all = Array(Set(RegexProperty.simpleNames.values).union(RegexBinaryProperty.allCases.map { .binary($0) }).union(classEscapes.map(\.1)))
        _ = ParallelMap.map(count: all.count, workers: ParallelMap.cores) { RegexScalarSet.property(all[$0]).isEmpty }
        var variants: [RegexProperty: [Int]] = [:]
        func entry(_ p: RegexProperty) -> [Int] {
            if let known = variants[p] { return known }
            let set = RegexScalarSet.property(p)
            let three = [id(set), id(RegexScalarSet.caseClosure(set)), id(RegexScalarSet.caseClosure(set.inverted).inverted)]
            variants[p] = three
            return three
        }
        var names: [(String, [Int])] = []
        for (name, p) in RegexProperty.simpleNames { names.append((name, entry(p))) }
        for (name, cs) in RegexProperty.categoryNames { names.append(("gc=" + name, entry(.categories(cs)))) }
        for (name, b) in RegexBinaryProperty.named { names.append(("=" + name, entry(.binary(b)))) }
        let escapes = classEscapes.map { ($0.0, entry($0.1)) }
        var orbits: [(UInt32, String)] = []
        for members in RegexCase.classes.values {
            let spelled = items(RegexScalarSet(members.map { $0.value...$0.value }).intersection(textScalars))
            for m in members { orbits.append((m.value, spelled)) }
        }
        func json(_ s: String) -> String {
            var out = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\\", "\"": out += "\\" + String(c)
                case "\u{0}"..."\u{1F}": out += "\\u" + String(repeating: "0", count: c.value < 16 ? 3 : 2) + String(c.value, radix: 16)
                default: out.unicodeScalars.append(c)
                }
            }
            return out + "\""
        }
        let setsJSON = sets.map(json).joined(separator: ",")
        func object(_ entries: [(String, [Int])]) -> String {
            entries.sorted { $0.0 < $1.0 }.map { json($0.0) + ":[" + $0.1.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",")
        }
        orbits.sort { $0.0 < $1.0 }
        let orbitsJSON = orbits.map { "\"\($0.0)\":" + json($0.1) }.joined(separator: ",")
        let codes = orbits.map { String($0.0) }.joined(separator: ",")
        return "{\"sets\":[\(setsJSON)],\"names\":{\(object(names))},\"escapes\":{\(object(escapes))},"
            + "\"orbits\":{\(orbitsJSON)},\"codes\":[\(codes)]}"
    }()

    /// The class escapes, by their lowercase letter (the uppercase one negates).
    static let classEscapes: [(String, RegexProperty)] = [("d", .digit), ("s", .space), ("w", .word), ("h", .horizontalSpace), ("v", .lineTerminator)]

    static func classFunctionsSQL() -> [String] {
        [
            """
            CREATE OR REPLACE FUNCTION vellum_regexp_data() RETURNS jsonb
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
            SELECT \(literalSQL(serverData))::jsonb
            $vellum$
            """,
            alnumFunction, propertyFunction, orbitsFunction, setFunction, unionFunction, bracketFunction,
        ]
    }

    /// Whether every character of `s` is alphabetic or an ASCII digit: a group's name, or an
    /// escape that is an error (`\q`, `\é`) rather than the character itself (`\€`).
    static let alnumFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_alnum(s text) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        BEGIN
          RETURN s ~ ('^[0-9' || (vellum_regexp_data() -> 'sets' ->> (vellum_regexp_data() -> 'names' -> 'alphabetic' ->> 0)::integer) || ']*$');
        END
        $vellum$
        """#

    /// The class `name` stands for in `\p{name}` (`negate`: `\P`) or `[:name:]`, as
    /// `RegexProperty.named` reads it and `RegexParser.closed` closes it under `(?i)`: bracket
    /// items, and whether the class is all but them. NULL items for a name memory refuses.
    /// Only simple expressions read `vellum_regexp_data()`: PL/pgSQL plans each once per
    /// session, with the jsonb folded in as a constant.
    static let propertyFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_property(name text, negate boolean, caseless boolean, OUT items text, OUT negated boolean)
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        DECLARE
          key text;
          value text;
          found jsonb;
          no boolean := false;   -- `X=No`: the class is the property's complement
        BEGIN
          IF left(name, 1) = '^' THEN negate := NOT negate; name := substr(name, 2); END IF;
          -- Loosely, as ICU: ASCII letters in lowercase (the Kelvin sign's is k), no '_', ' ' or '-'.
          IF strpos(name, '=') > 0 THEN
            key := translate(lower(left(name, strpos(name, '=') - 1) COLLATE "C"), U&'\212A_ -', 'k');
            value := translate(lower(substr(name, strpos(name, '=') + 1) COLLATE "C"), U&'\212A_ -', 'k');
            IF key IN ('gc', 'generalcategory') THEN
              key := 'gc=' || value;
            ELSIF value IN ('yes', 'y', 'true', 't', 'no', 'n', 'false', 'f') THEN
              no := value IN ('no', 'n', 'false', 'f');
              key := '=' || key;
            ELSE
              RETURN;
            END IF;
            found := vellum_regexp_data() -> 'names' -> key;
          ELSE
            found := vellum_regexp_data() -> 'names' -> translate(lower(name COLLATE "C"), U&'\212A_ -', 'k');
            -- ICU's `Is` prefix is case-sensitive.
            IF found IS NULL AND left(name, 2) = 'Is' THEN
              found := vellum_regexp_data() -> 'names' -> translate(lower(substr(name, 3) COLLATE "C"), U&'\212A_ -', 'k');
            END IF;
          END IF;
          IF found IS NULL THEN RETURN; END IF;
          -- Under (?i) closed, then negated: `\P{X=No}` is what no case partner of leaves out of X.
          items := vellum_regexp_data() -> 'sets' ->> (found ->> CASE WHEN NOT caseless THEN 0 WHEN no AND negate THEN 2 ELSE 1 END)::integer;
          negated := no <> negate;
        END
        $vellum$
        """#

    /// The items of the case partners (`(?i)`) of the scalars from `low` to `high`.
    static let orbitsFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_orbits(low integer, high integer) RETURNS text
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        DECLARE
          codes jsonb := vellum_regexp_data() -> 'codes';
          k integer := 0;
          m integer;
          n integer := jsonb_array_length(codes);
          out text := '';
        BEGIN
          IF low = high THEN RETURN coalesce(vellum_regexp_data() -> 'orbits' ->> low::text, ''); END IF;
          m := n;
          WHILE k < m LOOP
            IF (codes ->> ((k + m) / 2))::integer < low THEN k := (k + m) / 2 + 1; ELSE m := (k + m) / 2; END IF;
          END LOOP;
          WHILE k < n AND (codes ->> k)::integer <= high LOOP
            out := out || (vellum_regexp_data() -> 'orbits' ->> (codes ->> k));
            k := k + 1;
          END LOOP;
          RETURN out;
        END
        $vellum$
        """#

    /// One character of a class: of its bracket `items`, or (`negated`) of all but them.
    static let setFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_set(items text, negated boolean) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
        SELECT CASE WHEN items = '' THEN CASE WHEN negated THEN '.' ELSE '[^\u0001-\U0010FFFF]' END
                    ELSE '[' || CASE WHEN negated THEN '^' ELSE '' END || items || ']' END
        $vellum$
        """#

    /// One character of any of: the set before `&&`/`--` (`first`), bracket `items`, `parts`.
    static let unionFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_union(first text, items text, parts text[]) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
        SELECT CASE cardinality(a) WHEN 0 THEN vellum_regexp_set('', false) WHEN 1 THEN a[1] ELSE '(?:' || array_to_string(a, '|') || ')' END
        FROM (SELECT CASE WHEN first IS NULL THEN '{}'::text[] ELSE ARRAY[first] END
                     || CASE WHEN items = '' THEN '{}'::text[] ELSE ARRAY[vellum_regexp_set(items, false)] END || parts AS a) AS x
        $vellum$
        """#

    /// `RegexParser.bracket` from after the `[` at `i`: an ARE matching one character of the
    /// class, and where the class ends. Under `(?i)` every leaf (a character, a range, a
    /// class) is closed over case: nested brackets are closed themselves, so the unions,
    /// intersections and differences of closed sets give the closure memory takes of the whole.
    static let bracketFunction = #"""
        CREATE OR REPLACE FUNCTION vellum_regexp_bracket(p text, i integer, caseless boolean, OUT expr text, OUT next integer)
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        DECLARE
          c text;
          negate boolean := substr(p, i, 1) = '^';
          first boolean := true;
          items text := '';         -- characters, ranges and classes of the set, as bracket items
          parts text[] := '{}';     -- the rest of it: negated classes, nested brackets
          result text;              -- the set before the last && or --
          e record;                 -- an escape: its code, or its class
          b record;                 -- a nested bracket
          class_items text;         -- a class: its items, and whether it is all but them
          class_negated boolean;
          low integer;
          high integer;
          j integer;
        BEGIN
          IF negate THEN i := i + 1; END IF;
          LOOP
            c := substr(p, i, 1);
            IF c = '' THEN
              RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing '']'' for a character class';
            END IF;
            IF c = ']' AND NOT first THEN i := i + 1; EXIT; END IF;
            first := false;
            IF c IN ('&', '-') AND substr(p, i + 1, 1) = c THEN
              IF substr(p, i + 2, 1) <> '[' THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: ''['' after ''' || c || c || '''';
              END IF;
              SELECT * INTO b FROM vellum_regexp_bracket(p, i + 3, caseless);
              result := CASE c WHEN '&' THEN '(?=' || vellum_regexp_union(result, items, parts) || ')' || b.expr
                               ELSE '(?!' || b.expr || ')' || vellum_regexp_union(result, items, parts) END;
              items := '';
              parts := '{}';
              i := b.next;
              CONTINUE;
            END IF;
            class_items := NULL;
            IF c = '[' AND substr(p, i + 1, 1) = ':' THEN
              j := strpos(substr(p, i + 2), ':');
              IF j = 0 OR substr(p, i + 2 + j, 1) <> ']' THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: missing '':]'' after ''[:''';
              END IF;
              SELECT * INTO class_items, class_negated FROM vellum_regexp_property(substr(p, i + 2, j - 1), false, caseless);
              IF class_items IS NULL THEN
                RAISE EXCEPTION USING ERRCODE = '2201B', MESSAGE = 'invalid regular expression: unknown class [:' || substr(p, i + 2, j - 1) || ':]';
              END IF;
              i := i + 3 + j;
            ELSIF c = '[' THEN
              SELECT * INTO b FROM vellum_regexp_bracket(p, i + 1, caseless);
              parts := parts || b.expr;
              i := b.next;
              CONTINUE;
            ELSIF c = '\' THEN
              SELECT * INTO e FROM vellum_regexp_escape(p, i + 1, caseless);
              low := e.code;
              class_items := e.items;
              class_negated := e.negated;
              i := e.next;
            ELSE
              low := ascii(c);
              i := i + 1;
            END IF;
            IF class_items IS NOT NULL THEN
              IF NOT class_negated THEN
                items := items || class_items;
              ELSE
                parts := parts || vellum_regexp_set(class_items, true);
              END IF;
              CONTINUE;
            END IF;
            high := low;
            IF substr(p, i, 1) = '-' AND substr(p, i + 1, 1) NOT IN (']', '[', '-', '') THEN
              IF substr(p, i + 1, 1) = '\' THEN
                SELECT * INTO e FROM vellum_regexp_escape(p, i + 2, caseless);
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
              items := items || vellum_regexp_char(low) || CASE WHEN high > low THEN '-' || vellum_regexp_char(high) ELSE '' END
                       || CASE WHEN caseless THEN vellum_regexp_orbits(low, high) ELSE '' END;
            END IF;
          END LOOP;
          expr := CASE WHEN NOT negate THEN vellum_regexp_union(result, items, parts)
                       WHEN result IS NOT NULL OR cardinality(parts) > 0 THEN '(?!' || vellum_regexp_union(result, items, parts) || ').'
                       ELSE vellum_regexp_set(items, true) END;
          next := i;
        END
        $vellum$
        """#
}
