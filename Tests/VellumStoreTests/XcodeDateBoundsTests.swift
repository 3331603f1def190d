import Foundation
import Testing
@testable import VellumStore

/// Xcode stores a date attribute's bounds as seconds since 2001
/// (`minDateTimeInterval`/`maxDateTimeInterval`); Vellum's rules count dates
/// from 1970. The reader converts, so a bound means the date Xcode showed.
@Suite struct XcodeDateBoundsTests {
    func model(_ attributes: String) throws -> ManagedObjectModel {
        try XcodeModelReader.read(data: Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Event" representedClassName="Event">
                    <attribute name="at" optional="YES" attributeType="Date" \(attributes)/>
                </entity>
            </model>
            """.utf8))
    }

    func date(_ iso: String) throws -> Value { .date(try ISODate.parse(iso)) }

    @Test func dateBoundsCountFrom2001LikeXcode() throws {
        // 0 = 2001-01-01T00:00:00Z, 86400 = one day later.
        let model = try model(#"minDateTimeInterval="0" maxDateTimeInterval="86400""#)
        let at = try #require(model.entity(named: "Event")?.attribute(named: "at"))
        #expect(at.minValue == Date(timeIntervalSinceReferenceDate: 0).timeIntervalSince1970)
        #expect(at.maxValue == Date(timeIntervalSinceReferenceDate: 86400).timeIntervalSince1970)
        #expect(ValueRules.violation(of: try date("2001-01-01T12:00:00Z"), for: at) == nil)
        #expect(ValueRules.violation(of: try date("2000-12-31T23:59:59Z"), for: at)
                == "value must be at least 2001-01-01T00:00:00Z, not \(try date("2000-12-31T23:59:59Z"))")
        #expect(ValueRules.violation(of: try date("2001-01-02T00:00:01Z"), for: at)?.hasPrefix("value must be at most 2001-01-02T00:00:00Z") == true)
    }

    @Test func aDateDefaultAndItsBoundsUseOneEpoch() throws {
        let model = try model(#"defaultDateTimeInterval="3600" minDateTimeInterval="3600""#)
        let at = try #require(model.entity(named: "Event")?.attribute(named: "at"))
        let defaultValue = try #require(at.defaultValue)
        #expect(ValueRules.violation(of: defaultValue, for: at) == nil, "the default sits exactly on the bound")
        #expect(defaultValue.doubleValue == at.minValue)
    }
}
