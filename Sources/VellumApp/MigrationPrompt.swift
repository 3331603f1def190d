import Foundation
import VellumStore
import VellumTerminal

/// `vellum STORE --model NEW`: before the browser opens a store whose model is not NEW,
/// the plan is shown on the screen and the user is asked. Yes migrates (with the backup,
/// as `vellum migrate` does) and the browser opens; no, Esc or a refused plan leaves the
/// file byte for byte as it was and the browser exits with a message.
enum MigrationPrompt {
    enum Outcome: Equatable {
        /// Open the store (it holds the model now, or held it already).
        case open
        /// Do not open; the exit status.
        case exit(Int32)
        /// Not a Vellum store (another program's database, a Core Data store): NEW is not a
        /// model to migrate to but the one to read it with — a mapping, or the app's model.
        case openWithModel
    }

    @MainActor
    static func resolve(storePath: String, model: ManagedObjectModel, modelName: String, readOnly: Bool) -> Outcome {
        let url = URL(fileURLWithPath: storePath)
        // A server store (postgresql://…?schema=NAME) is planned and migrated by the server.
        let server: PostgreSQLURL?
        do { server = PersistentStore.isServerLocation(storePath) ? try PostgreSQLURL(storePath) : nil } catch {
            VellumBrowser.printError("vellum: \(error.description)")
            return .exit(1)
        }
        let storeName = server.map { $0.schema.map { "schema \($0)" } ?? "the store" } ?? url.lastPathComponent
        let plan: MigrationPlan
        do throws(StoreError) {
            if let server { plan = try StoreMigrator.plan(postgreSQL: server, to: model) } else { plan = try StoreMigrator.plan(storeAt: url, to: model) }
        } catch .notAStore, .coreDataStore {
            return .openWithModel
        } catch {
            VellumBrowser.printError("vellum: \(error.description)")
            return .exit(1)
        }
        if plan.fromHash == plan.toHash { return .open }
        if readOnly {
            VellumBrowser.printError("vellum: \(storeName) holds another model than \(modelName) and is opened read-only, so it cannot be migrated; it was not changed")
            return .exit(1)
        }
        let screen: Screen
        do { screen = try Screen.start() } catch {
            VellumBrowser.printError(error.description)
            return .exit(1)
        }
        let text = MigrationPromptText(plan: plan, storeName: storeName, modelName: modelName)
        guard plan.canRun else {
            _ = ask(text, screen: screen)
            screen.stop()
            VellumBrowser.printError("vellum: \(storeName) was not migrated (the plan cannot run) and is unchanged:\n"
                                     + plan.blockers.map { "  \($0)" }.joined(separator: "\n"))
            return .exit(1)
        }
        guard ask(text, screen: screen) else {
            screen.stop()
            VellumBrowser.printError("vellum: \(storeName) was not migrated and is unchanged; open it without --model, or migrate it with `vellum migrate`")
            return .exit(1)
        }
        draw(MigrationPromptText.Line(text: "Migrating \(storeName)…", kind: .question), screen: screen)
        do {
            if let server { try StoreMigrator.migrate(postgreSQL: server, to: model) } else { try StoreMigrator.migrate(storeAt: url, to: model) }
        } catch {
            screen.stop()
            VellumBrowser.printError("vellum: \(error.description)")
            return .exit(1)
        }
        // The screen stays up: the browser's own start finds it and goes on.
        return .open
    }

    /// Shows the plan until the user answers; true for y/Y.
    @MainActor
    private static func ask(_ text: MigrationPromptText, screen: Screen) -> Bool {
        // A refused plan opens at its end, where the reasons are.
        var offset = text.canRun ? 0 : text.maxOffset(rows: screen.size.rows, columns: screen.size.columns)
        while true {
            let (rows, columns) = (screen.size.rows, screen.size.columns)
            let last = text.maxOffset(rows: rows, columns: columns)
            draw(text, offset: offset, on: screen)
            guard let key = screen.readKey(timeoutMilliseconds: 200) else { continue }
            let page = max(1, MigrationPromptText.bodyHeight(rows: rows) - 1)
            switch key {
            case .up: offset = max(0, offset - 1)
            case .down: offset = min(last, offset + 1)
            case .pageUp: offset = max(0, offset - page)
            case .pageDown, .char(" "): offset = min(last, offset + page)
            case .resize: offset = min(offset, last)
            case .char("y"), .char("Y"): return text.canRun
            case .char("n"), .char("N"), .escape, .char("q"), .ctrl("c"): return false
            default: if !text.canRun { return false }
            }
        }
    }

    /// One frame of the question: the title, the plan from `offset`, the question
    /// (drawn into any canvas, so the snapshot tests draw it without a terminal).
    @MainActor
    static func draw(_ text: MigrationPromptText, offset: Int, on screen: any CellCanvas) {
        let (rows, columns) = (screen.size.rows, screen.size.columns)
        screen.clear(style: .plain)
        for (row, line) in text.lines(rows: rows, columns: columns, offset: offset).enumerated() {
            let style = line.kind == .body ? Style.plain : Style(attributes: .bold)
            _ = screen.put(row: row, col: 0, text: line.text, style: style)
        }
        screen.refresh()
    }

    @MainActor
    private static func draw(_ line: MigrationPromptText.Line, screen: Screen) {
        let row = max(0, screen.size.rows - 1)
        screen.fill(row: row, col: 0, width: screen.size.columns)
        _ = screen.put(row: row, col: 0, text: line.text, style: Style(attributes: .bold))
        screen.refresh()
    }
}
