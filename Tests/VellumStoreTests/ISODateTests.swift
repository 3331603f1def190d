import Foundation
import Testing
import VellumStore

/// Issue #11 item 8: dates are parsed strictly, everywhere, and what is shown reads back to the same value.
@Suite struct ISODateTests {
    private func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Date {
        var c = DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        c.timeZone = TimeZone(identifier: "UTC")
        return Calendar(identifier: .gregorian).date(from: c)!
    }

    private func reason(_ text: String) -> String? {
        do { _ = try ISODate.parse(text); return nil } catch {
            guard case .date(let e) = error else { return "not a date error: \(error)" }
            return e.reason
        }
    }

    @Test func datesAreNotSilentlyAltered() throws {
        #expect(try ISODate.parse("2024-05-01 12:30") == utc(2024, 5, 1, 12, 30))
        #expect(try ISODate.parse("2024-05-01T12:30") == utc(2024, 5, 1, 12, 30))
        #expect(reason("2024-06-01xyz") == "unexpected 'xyz' after the date")
        #expect(reason("2024-02-30") == "February 2024 has no day 30 (01-29)")
        #expect(reason("2023-02-29") == "February 2023 has no day 29 (01-28)")
        #expect(reason("2024-06-02T25:99:00Z") == "hour 25 is out of range (00-23)")
        #expect(reason("2024-06-02T23:99:00Z") == "minute 99 is out of range (00-59)")
        #expect(reason("2024-06-02T23:59:60Z") == "second 60 is out of range (00-59)")
        #expect(reason("99999-01-01") == "expected a 4-digit year, found more digits")
        #expect(reason("2024-05-01 garbage") == "expected a time HH:MM after the date, found 'garbage'")
        #expect(reason("2024-13-01") == "month 13 is out of range (01-12)")
        #expect(reason("2024-5-1") == "expected a 2-digit month, found '5-1'")
        #expect(reason("2024-05-01T12:30:00+25:00") == "zone offset hour 25 is out of range (00-23)")
        #expect(reason("2024-05-01T12:30:00.Z") == "expected digits after the decimal point of the seconds")
        #expect(reason("0000-01-01") == "year 0000 is not allowed (years 0001-9999)")
        #expect(reason("") == "it is empty")
        #expect(reason("2024-05-01T12") == "expected ':' after the hour, found the end")
    }

    @Test func everyAcceptedForm() throws {
        let noon = utc(2024, 5, 1, 12, 30)
        for text in ["2024-05-01T12:30", "2024-05-01 12:30", "2024-05-01T12:30:00", "2024-05-01T12:30:00Z",
                     "2024-05-01t12:30:00z", "2024-05-01T12:30:00.000Z", "2024-05-01T12:30:00,0Z",
                     "2024-05-01T14:30:00+02:00", "2024-05-01T14:30+0200", "2024-05-01T14:30+02",
                     "2024-05-01T07:00:00-05:30"] {
            #expect(try ISODate.parse(text) == noon, "\(text)")
        }
        #expect(try ISODate.parse("2024-05-01") == utc(2024, 5, 1))
        #expect(try ISODate.parse("2024-02-29") == utc(2024, 2, 29))
        #expect(try ISODate.parse("0001-01-01").timeIntervalSince1970 == -62_135_596_800)   // proleptic Gregorian
        #expect(try ISODate.parse("9999-12-31T23:59:59Z") == utc(9999, 12, 31, 23, 59, 59))
        #expect(try ISODate.parse("2024-05-01T12:30:00.25Z").timeIntervalSince1970 == utc(2024, 5, 1, 12, 30).timeIntervalSince1970 + 0.25)
    }

    @Test func theMessageListsTheAcceptedForms() {
        do { _ = try ISODate.parse("2024-02-30"); Issue.record("accepted") } catch {
            #expect(error.description == "'2024-02-30' is not a date: February 2024 has no day 30 (01-29); use "
                    + "2024-05-01, 2024-05-01T12:30, 2024-05-01 12:30:15, 2024-05-01T12:30:15.25Z, 2024-05-01T12:30+02:00 (no zone = UTC)")
        }
    }

    @Test func textIsShortestAndUTC() {
        #expect(ISODate.text(utc(2024, 5, 1, 12, 30)) == "2024-05-01T12:30:00Z")
        #expect(ISODate.text(utc(2024, 5, 1).addingTimeInterval(0.25)) == "2024-05-01T00:00:00.25Z")
        #expect(ISODate.text(utc(1969, 12, 31, 23, 59, 59)) == "1969-12-31T23:59:59Z")
        #expect(ISODate.text(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
    }

    /// What is shown (browser, CLI) is the text of the stored double; typed back it
    /// must give the same double. Randomized and seeded (`VELLUM_SEED` replays).
    @Test func shownDatesTypeBackToTheSameValue() throws {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        let lowest = -62_135_596_800.0, highest = 253_402_300_799.0   // 0001-01-01 ... 9999-12-31T23:59:59
        for i in 0..<20_000 {
            let t: Double
            switch i % 4 {
            case 0: t = Double(Int64.random(in: Int64(lowest)...Int64(highest), using: &rng))
            case 1: t = Double.random(in: lowest...highest, using: &rng)
            case 2: t = Double.random(in: 0...2_000_000_000, using: &rng)
            default: t = Double(Int64.random(in: 0...2_000_000_000, using: &rng)) + Double(Int.random(in: 0...999, using: &rng)) / 1000
            }
            let date = Date(timeIntervalSince1970: t)
            let shown = ISODate.text(date)
            let back = try ISODate.parse(shown)
            #expect(back == date && back.timeIntervalSince1970 == date.timeIntervalSince1970,
                    "seed \(seed): \(t) shown as \(shown) reads back as \(back.timeIntervalSince1970)")
            if back != date { break }
        }
    }
}
