import Foundation
import VellumStore

/// `insert-100k-typed` and `fetch-100k-typed`: the Record workload through the
/// generated `Record` class (typed properties, `Record(context:)`, `fetch(Record.self)`),
/// each beside the untyped API doing the same in the same run — the bound is
/// 1.1× of the untyped figures.
enum TypedRecordWorkload {
    /// Creates a store (untimed), then times one context inserting every row through
    /// `Record(context:)` and property setters, and one save.
    static func insert(at url: URL, rows: [RecordWorkload.Row]) throws -> Double {
        let store = try PersistentStore(url: url, model: try RecordWorkload.model(), options: StoreOptions())
        // `Timing.milliseconds` rethrows: an error ends the run, no capture needed.
        return try Timing.milliseconds {
            let ctx = try ManagedObjectContext(store: store)
            for r in rows {
                let o = try Record(context: ctx)
                o.key = r.key
                o.name = r.name
                o.category = r.category
                if let note = r.note { o.note = note }
                o.count = Int32(r.count)
                o.flag = r.flag
                o.rank = r.rank
                o.price = r.price
                o.weight = r.weight
                o.score = r.score
            }
            _ = try ctx.save()
        }
    }

    /// Times a fresh context fetching every Record as the generated type and reading every
    /// property; the checksum folds the values as `RecordWorkload.vellumFetch` does.
    static func fetch(at url: URL) throws -> (Double, Int64) {
        let store = try PersistentStore(url: url, model: nil, options: StoreOptions(createIfMissing: false))
        var checksum: Int64 = 0, fetched = 0
        let ctx = try ManagedObjectContext(store: store)   // before the timing, as `RecordWorkload.vellumFetch`
        let ms = try Timing.milliseconds {
            let records = try ctx.fetch(Record.self)
            fetched = records.count
            for r in records {
                checksum &+= r.key
                checksum &+= fold(r.name)
                checksum &+= fold(r.category)
                checksum &+= fold(r.note)
                checksum &+= r.count.map(Int64.init) ?? -1
                checksum &+= r.flag.map { $0 ? 1 : 0 } ?? -1
                checksum &+= r.rank ?? -1
                checksum &+= fold(r.price)
                checksum &+= fold(r.weight)
                checksum &+= fold(r.score)
            }
        }
        if fetched != RecordWorkload.rowCount { throw BenchError("fetched \(fetched) records, expected \(RecordWorkload.rowCount)") }
        return (ms, checksum)
    }

    private static func fold(_ s: String?) -> Int64 { s.map { Int64($0.utf8.count) } ?? -1 }
    private static func fold(_ d: Double?) -> Int64 { d.map { Int64(bitPattern: $0.bitPattern) >> 8 } ?? -1 }
}
