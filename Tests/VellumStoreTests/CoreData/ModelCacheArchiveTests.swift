import Foundation
import Testing
@testable import VellumStore

/// Inflating `Z_MODELCACHE` (raw DEFLATE) and walking the keyed archive inside, on copies
/// of the fixture stores.
@Suite struct ModelCacheArchiveTests {
    static let storesWithCache = ["Moody-v1.sqlite", "Moody-v2.sqlite", "SampleModel-v1.sqlite", "SampleModel-v2.sqlite"]

    @Test(arguments: storesWithCache)
    func modelCacheInflatesToTheCompiledModel(store: String) throws {
        let copy = try CoreDataFixtureCopy(store)
        let archive = try KeyedArchive(data: try #require(try CoreDataStoreFile(path: copy.url.path).modelCacheArchive()))
        let root = try archive.root()
        #expect(try archive.className(root) == "NSManagedObjectModel")
        let entities = try archive.entries(try archive.field(root, "NSEntities")).map(\.key).sorted()
        let stored = try CoreDataStoreFile(path: copy.url.path).metadata().versionHashes.keys.sorted()
        #expect(entities == stored)
        #expect(copy.originalUnchanged())
        #expect(copy.folderContents() == [store], "opening created files beside the store")
    }

    @Test func inflateRefusesDamagedData() throws {
        let copy = try CoreDataFixtureCopy("Moody-v1.sqlite")
        let compressed = try #require(try CoreDataStoreFile(path: copy.url.path).compressedModelCache())
        #expect { try RawInflate.inflate(compressed.prefix(compressed.count / 2), what: "cache") } throws: { e in
            guard case StoreError.malformedCoreData("cache", _?, let reason) = e else { return false }
            return reason == "the compressed data ends early"
        }
        #expect { try RawInflate.inflate(Data([0xFF, 0xFF, 0xFF, 0xFF]), what: "cache") } throws: { e in
            guard case StoreError.malformedCoreData("cache", _?, let reason) = e else { return false }
            return reason.hasPrefix("not raw DEFLATE data")
        }
        #expect(copy.originalUnchanged())
    }

    /// What Foundation's NSKeyedArchiver writes decodes to the same plain values.
    @Test func decodesFoundationArchives() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let root: NSDictionary = ["name": "Zoë", "tags": ["a", "b"], "when": date, "count": 3, "bytes": Data([1, 2]),
                                  "set": NSSet(array: [5])]
        let archive = try KeyedArchive(data: NSKeyedArchiver.archivedData(withRootObject: root))
        let d = try #require(try archive.decodedRoot().dictionary)
        #expect(d["name"] == .string("Zoë"))
        #expect(d["tags"] == .array([.string("a"), .string("b")]))
        #expect(d["when"] == .date(1000))
        #expect(d["count"] == .integer(3))
        #expect(d["bytes"] == .data(Data([1, 2])))
        #expect(d["set"] == .set([.integer(5)]))
    }

    @Test func refusesArchivesThatAreNotKeyedArchives() throws {
        let plain = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        #expect { try KeyedArchive(data: plain, what: "value") } throws: { e in
            "\(e)".contains("value: cannot be decoded: not an NSKeyedArchiver archive")
        }
        // A reference past the end of $objects.
        let archive = try KeyedArchive(plist: .dictionary(["$objects": .array([.string("$null")]), "$top": .dictionary(["root": .uid(9)])]))
        #expect { try archive.root() } throws: { e in "\(e)".contains("reference $objects[9] of 1") }
    }

    /// An archive whose `$objects[1]` is `[a, a]`, `a` = `[b, b]`, … `levels` deep: linear in
    /// the file, exponential if each reference were decoded again.
    static func sharedChildren(levels: Int, cycle: Bool = false) -> Data {
        var p = BinaryPlistBytes()
        let null = p.ascii("$null")
        var next = p.add([0x10, 1])
        for _ in 0..<levels { next = p.add([0xA2, next, next]) }
        if cycle {
            // An array holding itself: it is the object added next.
            next = p.add([0xA1, UInt8(p.objects.count)])
        }
        let objects = p.add([0xA2, null, next])
        let rootKey = p.ascii("root"), uid = p.add([0x80, 1])
        let top = p.add([0xD1, rootKey, uid])
        let objectsKey = p.ascii("$objects"), topKey = p.ascii("$top")
        let root = p.add([0xD2, objectsKey, topKey, objects, top])
        return p.data(top: root)
    }

    @Test func anArchiveWhoseObjectsShareChildrenIsDecodedWhenSmallAndRefusedWhenExponential() throws {
        let small = try KeyedArchive(data: Self.sharedChildren(levels: 3), what: "small")
        #expect(try small.root() == .array(Array(repeating: .array(Array(repeating: .array([.integer(1), .integer(1)]), count: 2)), count: 2)))
        let huge = try KeyedArchive(data: Self.sharedChildren(levels: 40), what: "shared.plist")
        let started = ContinuousClock.now
        #expect { try huge.root() } throws: { e in "\(e)".contains("shared.plist") && "\(e)".contains("more than 65536 objects under one object") }
        #expect(ContinuousClock.now - started < .seconds(5), "refused at once, not after 2^40 steps")
    }

    @Test func anArchivedObjectContainingItselfIsRefused() throws {
        let archive = try KeyedArchive(data: Self.sharedChildren(levels: 1, cycle: true), what: "cycle.plist")
        #expect { try archive.root() } throws: { e in "\(e)".contains("containers nested deeper than 64") }
    }

    /// A damaged archive is reported as damaged, at its byte, not as "not a keyed archive":
    /// the root dictionary is read from the bytes when the archive is opened (lazily since
    /// stop 36), and its damage must keep the reason the whole-file reader gave.
    @Test func lazyArchiveRootDamageNamesTheByteNotNotAnArchive() throws {
        let good = [UInt8](Self.sharedChildren(levels: 1))
        // The root dictionary is the last object: its `$objects` value (the fourth byte after
        // its marker: marker, two key references, then the values) points past the table.
        let trailer = good.count - 32
        let table = good[(trailer + 24)..<(trailer + 32)].reduce(0) { $0 << 8 | Int($1) }
        let count = good[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
        let root = Int(good[table + count - 1])
        #expect(good[root] == 0xD2)
        var damaged = good
        damaged[root + 3] = 0xF0
        #expect { try KeyedArchive(data: Data(damaged), what: "damaged.plist") } throws: { e in
            "\(e)".contains("damaged.plist: cannot be decoded at byte \(root + 3): reference to object 240") && !"\(e)".contains("not an NSKeyedArchiver")
        }
        // A plist that is sound but no archive still says so.
        let plain = try PropertyListSerialization.data(fromPropertyList: ["$objects": "no array"], format: .binary, options: 0)
        #expect { try KeyedArchive(data: plain, what: "plain") } throws: { e in "\(e)".contains("not an NSKeyedArchiver archive") }
    }
}
