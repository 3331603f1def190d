import Foundation

/// A PostgreSQL serialization failure (`40001`) or deadlock (`40P01`) rolled the
/// transaction back and wrote nothing; the same work run again may well succeed. The
/// write queue runs the block again on a fresh context, and a context's own `save()`
/// writes its changes again, with growing, jittered pauses, at most `attempts` times in
/// all, then reports the last failure saying how often it was tried.
enum ServerConflictRetry {
    static let attempts = 5

    static func isTransient(_ error: any Error) -> Bool {
        if case StoreError.postgresql(let f)? = error as? StoreError { return f.isTransientConflict }
        return false
    }

    static func run<T>(_ body: () throws -> T) -> Result<T, any Error> {
        var attempt = 1
        while true {
            let outcome = Result { try body() }
            guard case .failure(let error) = outcome, case StoreError.postgresql(var failure)? = error as? StoreError,
                  failure.isTransientConflict else { return outcome }
            if attempt == attempts {
                failure.message += " (tried \(attempts) times)"
                return .failure(StoreError.postgresql(failure))
            }
            usleep(useconds_t(min(400_000, 10_000 << attempt)) + useconds_t.random(in: 0..<10_000))
            attempt += 1
        }
    }
}
