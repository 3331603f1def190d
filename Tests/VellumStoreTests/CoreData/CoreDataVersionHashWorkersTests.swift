import Foundation
import Testing
@testable import VellumStore

/// A large model's version hashes are computed on several threads (each entity's property
/// digests); the result must be the one thread's, byte for byte, whatever the split.
@Suite struct CoreDataVersionHashWorkersTests {
    /// 150 entities: chains of sub-entities (parents hash before children), to-ones and
    /// to-manys between neighbours, transient and optional attributes, uniqueness constraints.
    static func largeModel() throws -> CoreDataModel {
        var builder = ModelBuilder()
        for i in 0..<150 {
            let parent = i % 5 == 0 ? nil : "E\(i - 1)"
            let next = "E\((i + 1) % 150)", previous = "E\((i + 149) % 150)"
            builder = builder.entity("E\(i)", parent: parent, abstract: i % 10 == 0) { e in
                e.attribute("name\(i)", .string, optional: i % 2 == 0)
                e.attribute("count\(i)", .integer32, transient: i % 7 == 0)
                e.attribute("when\(i)", .date)
                e.toOne("next\(i)", next, inverse: "previous\((i + 1) % 150)")
                e.toMany("previous\(i)", previous, inverse: "next\((i + 149) % 150)")
                if parent == nil { e.unique("name\(i)") }
            }
        }
        return CoreDataModel(model: try builder.build())
    }

    @Test func largeModelHashesOnSeveralThreadsEqualOneThreads() throws {
        let model = try Self.largeModel()
        let one = CoreDataVersionHash.hashes(model, workers: 1)
        #expect(one.count == 150 && one.values.allSatisfy { $0.count == 32 })
        #expect(Set(one.values).count == 150, "every entity's hash differs")
        for workers in [2, 3, 7] {
            #expect(CoreDataVersionHash.hashes(model, workers: workers) == one, "\(workers) workers")
        }
        #expect(CoreDataVersionHash.hashes(model) == one)
    }
}
