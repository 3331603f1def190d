extension StoreError {
    /// Runs store code and hands on what it throws as a `StoreError`: the nested
    /// error types (query, parse, model, results) become their case, with their
    /// fields and messages; anything else becomes `invalidOperation` with its text.
    /// (Public API wraps with this where typed throws cannot be spelled through callees.)
    static func nesting<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw StoreError(nesting: error) }
    }

    init(nesting error: any Error) {
        switch error {
        case let e as StoreError: self = e
        case let e as QueryError: self = .query(e)
        case let e as ParseError: self = .parse(e)
        case let e as ModelError: self = .model(e)
        case let e as ResultsControllerError: self = .results(e)
        case let e as RegexError: self = .regex(e)
        case let e as FileWriteError: self = .fileWrite(e)
        case let e as HistoryExpired: self = .historyExpired(e)
        case let e as ValueTypeMismatch: self = .valueType(e)
        case let e as DateParseError: self = .date(e)
        case let e as ValueParseError: self = .valueParse(e)
        default: self = .invalidOperation(ErrorText.describe(error))
        }
    }

    /// The nested query error, for callers that show its caret.
    public var queryError: QueryError? { if case .query(let e) = self { return e } else { return nil } }
    /// The nested syntax error, for callers that show its position.
    public var parseError: ParseError? { if case .parse(let e) = self { return e } else { return nil } }
    /// The nested model error.
    public var modelError: ModelError? { if case .model(let e) = self { return e } else { return nil } }
    /// The nested results-controller error.
    public var resultsError: ResultsControllerError? { if case .results(let e) = self { return e } else { return nil } }
}
