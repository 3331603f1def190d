import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// A long store name (a PostgreSQL URL, a deep path) used to push the live marker and
/// the status message ("saved name", an error) off the status bar at 80 columns: the
/// name is shortened in the middle instead, so what just happened stays visible.
@MainActor @Suite(.serialized) struct StatusBarFitTests {
    @Test func aLongStoreNameDoesNotHideTheLiveMarkerOrTheMessage() async throws {
        let snapshots = SnapshotTests()
        let session = try await snapshots.session(TerminalSize(rows: 24, columns: 80))
        let url = "postgresql://app@db.example.internal:5432/warehouse?host=/run/postgresql&schema=inventory"
        var model = snapshots.model(session)
        model.fileName = url
        let status = snapshots.render(model)[22]
        #expect(status.contains("● live"), "\(status)")
        #expect(status.contains("Product"), "\(status)")
        #expect(status.contains("postgresql://"), "the name's start stays: \(status)")
        #expect(status.contains("schema=inventory"), "the name's end stays: \(status)")
        #expect(status.contains("…"), "\(status)")

        // With a message: the message is shown whole.
        model.state.statusMessage = "saved name"
        let withMessage = snapshots.render(model)[22]
        #expect(withMessage.contains("saved name"), "\(withMessage)")
        #expect(withMessage.contains("● live"), "\(withMessage)")
    }

    @Test func aShortStoreNameIsShownWhole() async throws {
        let snapshots = SnapshotTests()
        let session = try await snapshots.session(TerminalSize(rows: 24, columns: 80))
        let status = snapshots.render(snapshots.model(session))[22]
        #expect(status.contains("shop.sqlite │ Product"), "\(status)")
    }
}
