import Foundation

/// The SQL functions a PostgreSQL store's schema holds so that queries mean in
/// the server what they mean in memory. Folding is generated from `TextFolding`
/// itself (`FoldTable`): a table of every scalar it changes, applied with
/// `translate` and `replace` and then NFC, and with diacritic folding the marks
/// after each base kept, dropped and ordered as Foundation does (`MarkRule`).
/// No extension (unaccent, ICU) folds exactly as Foundation does.
public enum PostgreSQLFunctions {
    /// `CREATE OR REPLACE FUNCTION` statements, for the schema first on the search path.
    public static func createSQL() -> [String] {
        foldFunctions() + [regexpFunction(), sortKeyFunction()] + PostgreSQLRegex.functionsSQL() + exactComparisons() + arithmeticFunctions()
    }

    /// Version of `createSQL`, kept in `_vellum_metadata` under `versionKey` (absent: 1).
    /// 2: `vellum_fold` folds marks after any base as Foundation does.
    /// 3: `vellum_matches` reads a MATCHES pattern from a key path as memory does (`PostgreSQLRegex`).
    /// 4: … with `(?i)`, `\p{…}`, POSIX and nested classes, `&&`, `--` and `\X` (`vellum_regexp_data`).
    static let version = 4
    static let versionKey = "functions"

    /// `vellum_regexp(pattern, text)`, which Vellum before `vellum_matches` called for every
    /// pattern, kept for such clients of the store: PostgreSQL's own reading of the pattern
    /// (no `\p{…}`, `(?i)` ASCII only, `.` matching a newline). Vellum itself translates
    /// patterns (`PostgreSQLRegex`).
    static func regexpFunction() -> String {
        let marks = "\u{300}-\u{36F}\u{1AB0}-\u{1AFF}\u{1DC0}-\u{1DFF}\u{20D0}-\u{20FF}\u{FE20}-\u{FE2F}"
        return """
        CREATE OR REPLACE FUNCTION vellum_regexp(p text, t text) RETURNS boolean
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $vellum$
        SELECT CASE WHEN p IS NULL OR t IS NULL THEN false ELSE t ~ (
            coalesce(substring(p from '^\\(\\?[a-z]+\\)'), '') || '^(?:'
            || replace(regexp_replace(p, '^\\(\\?[a-z]+\\)', ''), '\\X', '(?:.[\(marks)]*)') || ')$') END
        $vellum$
        """
    }

    /// `vellum_sort_key(text)`: bytes ordering as `TextFolding.compareCollated(localized: true)`
    /// orders before its tie-break: folded text whose digit runs become `0`, their
    /// significant length (10 digits) and their significant digits, so "file2" < "file10".
    static func sortKeyFunction() -> String {
        """
        CREATE OR REPLACE FUNCTION vellum_sort_key(t text) RETURNS bytea
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
        SELECT convert_to(coalesce(string_agg(CASE WHEN m[1] ~ '^[0-9]'
            THEN '0' || lpad(length(ltrim(m[1], '0'))::text, 10, '0') || ltrim(m[1], '0') ELSE m[1] END, '' ORDER BY n), ''), 'UTF8')
        FROM regexp_matches(vellum_fold(t, 3), '[0-9]+|[^0-9]+', 'g') WITH ORDINALITY AS r(m, n)
        $vellum$
        """
    }

    /// `vellum_arith(op, a, b)` for `+ - *` and `vellum_divide(a, b)`, as `ValueArithmetic`
    /// (SQLite's rules): integers stay exact and fall back to doubles on overflow, `/`
    /// divides doubles and gives NULL for a zero divisor, NaN is NULL. Overloads on
    /// bigint, numeric and double precision; PostgreSQL picks one by the operands' types.
    /// An integer result is numeric with scale 0; a double that integer arithmetic
    /// overflowed to is numeric holding its exact value with scale 1, so that later
    /// arithmetic on it is done on doubles again, as in memory.
    static func arithmeticFunctions() -> [String] {
        func function(_ name: String, _ args: String, _ result: String, _ body: String) -> String {
            """
            CREATE OR REPLACE FUNCTION \(name)(\(args)) RETURNS \(result)
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$ \(body) $vellum$
            """
        }
        let exact = "CASE op WHEN '+' THEN a::numeric + b WHEN '-' THEN a::numeric - b ELSE a::numeric * b END"
        let asDouble = "round(vellum_exact(vellum_arith(op, a::float8, b::float8)), 1)"
        let integer = "SELECT CASE WHEN r BETWEEN -9223372036854775808::numeric AND 9223372036854775807::numeric THEN r"
            + " ELSE \(asDouble) END FROM (SELECT \(exact) AS r) AS x"
        return [
            function("vellum_arith", "op text, a float8, b float8", "float8",
                     "SELECT nullif(CASE op WHEN '+' THEN a + b WHEN '-' THEN a - b ELSE a * b END, 'NaN'::float8)"),
            function("vellum_arith", "op text, a bigint, b bigint", "numeric", integer),
            function("vellum_arith", "op text, a numeric, b numeric", "numeric",
                     "SELECT CASE WHEN scale(a) > 0 OR scale(b) > 0 THEN \(asDouble) ELSE (\(integer)) END"),
            function("vellum_divide", "a float8, b float8", "float8", "SELECT CASE WHEN b = 0::float8 THEN NULL ELSE nullif(a / b, 'NaN'::float8) END"),
        ]
    }

    /// Comparison operators between doubles and integers (bigint, or numeric from
    /// integer arithmetic) that compare exact values, as SQLite and memory do:
    /// PostgreSQL's own would round the integer to a double (2^63 would equal
    /// Int64.max). Found before the built-in ones: they match both types exactly.
    static func exactComparisons() -> [String] {
        // A double's exact value: integers past 2^53 through a scaled bigint; smaller ones
        // by their shortest text, which no integer lies between.
        var sql = ["""
            CREATE OR REPLACE FUNCTION vellum_exact(f float8) RETURNS numeric
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$
            SELECT CASE WHEN f = 'Infinity'::float8 OR f = '-Infinity'::float8 OR f = 'NaN'::float8 OR abs(f) < 9007199254740992::float8 THEN f::text::numeric
                ELSE (f / power(2::float8, k))::bigint::numeric * power(2::numeric, k) END
            FROM (SELECT greatest(0, floor(ln(abs(f)) / ln(2))::int - 60) AS k) AS x
            $vellum$
            """]
        let operators = [("=", "eq"), ("<>", "ne"), ("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")]
        // numeric × bigint too: with the others, PostgreSQL could no longer choose between its own.
        for (left, right) in [("float8", "bigint"), ("bigint", "float8"), ("float8", "numeric"), ("numeric", "float8"), ("numeric", "bigint"), ("bigint", "numeric")] {
            func exact(_ side: String, _ type: String) -> String { type == "float8" ? "vellum_exact(\(side))" : "\(side)::numeric" }
            for (op, name) in operators {
                let function = "vellum_\(name)_\(left)_\(right)"
                sql.append("""
                    CREATE OR REPLACE FUNCTION \(function)(a \(left), b \(right)) RETURNS boolean
                    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $vellum$ SELECT \(exact("a", left)) \(op) \(exact("b", right)) $vellum$
                    """)
                sql.append("""
                    DO $vellum$ BEGIN
                    CREATE OPERATOR \(op) (LEFTARG = \(left), RIGHTARG = \(right), FUNCTION = \(function));
                    EXCEPTION WHEN duplicate_function THEN NULL; END $vellum$
                    """)
            }
        }
        return sql
    }
}
