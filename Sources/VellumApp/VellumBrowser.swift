import Foundation
import VellumStore
import VellumTerminal

/// Public entry point of the interactive browser.
public enum VellumBrowser {
    /// Opens `storePath` and runs the browser until the user quits. Returns the exit code;
    /// errors (missing file, not a store, no terminal, too small) are printed to stderr.
    @MainActor
    /// With `model` (`--model NEW`), a store holding another model is migrated first if the user agrees (`MigrationPrompt`).
    /// `demo`: open `DemoStore.firstEntity` with the welcome line (`vellum demo`).
    public static func run(storePath: String, themeName: String?, readOnly askedReadOnly: Bool = false,
                           model: (model: ManagedObjectModel, name: String)? = nil, demo: Bool = false,
                           mouse: Bool = true, enforcesForeignKeys: Bool = true) async throws -> Int32 {
        let onServer = PersistentStore.isServerLocation(storePath)
        guard onServer || FileManager.default.fileExists(atPath: storePath) else {
            printError("vellum: no such file: \(storePath)")
            return 1
        }
        // A store the user cannot write is browsed read-only (the status line says why).
        let readOnly = askedReadOnly || (!onServer && !PersistentStore.isWritable(storePath))
        var options = StoreOptions(createIfMissing: false, readOnly: readOnly)
        options.enforcesForeignKeys = enforcesForeignKeys
        // The model another program's database or a Core Data store is read with (`--model`).
        var readingModel: ManagedObjectModel?
        if let model {
            switch MigrationPrompt.resolve(storePath: storePath, model: model.model, modelName: model.name, readOnly: readOnly) {
            case .exit(let status): return status
            case .openWithModel: readingModel = model.model
            case .open: break
            }
        }
        var container: PersistentContainer
        do {
            // Any SQLite database: another program's is opened through its inferred model (or the mapping given).
            container = try SchemaReopen.open(storePath, options: options, model: readingModel)
        } catch let error as StoreError {
            Screen.current?.stop()   // up when the migration prompt showed
            printError("vellum: \(error.description)")
            return 1
        }
        do { try TerminalError.requireTerminal() } catch {
            printError(error.description)
            return 1
        }
        let screen: Screen
        do { screen = try Screen.start() } catch {
            printError(error.description)
            return 1
        }
        defer { screen.stop() }
        screen.setMouseCapture(mouse)
        // A private queue: the loop blocks the main thread in readKey for up to 50 ms.
        let guardian = TerminalGuard()
        guardian.install(queue: DispatchQueue(label: "vellum.signals"))
        defer { guardian.uninstall() }

        if Layout.isTooSmall(screen.size) {
            let size = screen.size
            screen.stop()
            printError("vellum: terminal too small (\(size.columns)x\(size.rows)); the browser needs at least \(Layout.minimumSize.columns)x\(Layout.minimumSize.rows)")
            return 1
        }

        let environment = ProcessInfo.processInfo.environment
        let requested = themeName ?? environment["VELLUM_THEME"].flatMap { $0.isEmpty ? nil : $0 } ?? ThemeLoader.defaultThemeName
        let loader = ThemeLoader()
        var (theme, themeError) = EventLoop.loadTheme(requested, loader: loader, capability: screen.colorCapability)
        screen.setExactColors(theme.exactColors)

        // Another program's database whose schema changes while shown is opened
        // again with the model inferred anew (`SchemaReopen`), on the same screen.
        var reopened: String?
        var reopenedEntity: String?
        while true {
            let session = BrowserSession(container: container,
                                         layoutFile: ColumnLayoutFile(environment: environment, storePath: storePath),
                                         settingsFile: BrowserSettingsFile(environment: environment),
                                         opening: reopenedEntity ?? (demo ? DemoStore.firstEntity : nil))
            session.send(.themeLoaded(name: theme.name, error: nil, quietly: true))
            let bindings = BindingsFile.load(environment: environment)
            session.send(.keyMapLoaded(bindings.keyMap))
            session.send(.mouseCaptureStarted(screen.capturesMouse))
            if demo && reopened == nil { session.send(.welcome(live: DemoStore.welcomeLive)) }
            if let problem = bindings.summary { session.setStatus(problem, error: true) }
            if readOnly {
                let snapshot: Bool = container.store.readsSnapshot
                session.setStatus(ReadOnlyBrowsing.openedMessage(requested: askedReadOnly, snapshot: snapshot))
            } else if let refusal = container.store.writeRefusal {
                session.setStatus(ReadOnlyBrowsing.refusal(writeRefusal: refusal), error: true)
            }
            if let themeError { session.send(.themeLoaded(name: theme.name, error: themeError.description)) }
            if let reopened { session.setStatus(reopened) }
            let loop = EventLoop(session: session, screen: screen,
                                 fileName: onServer ? container.store.path : URL(fileURLWithPath: storePath).lastPathComponent, theme: theme)
            let observer = SchemaReopen.observe(container, loop: loop)
            await loop.run()
            // The schema changed, or `:track`/`:track off` changed how changes are learnt.
            guard let status = loop.schemaChange.map(SchemaReopen.status) ?? loop.reopening?.status else { return 0 }
            // After a schema change the same entity shows again, if it is still there.
            reopenedEntity = loop.schemaChange == nil ? loop.reopening?.entity : loop.session.state.currentEntityName
            (theme, themeError) = (loop.theme, nil)
            if let observer { container.removeSchemaObserver(observer) }
            do { container = try SchemaReopen.open(storePath, options: options, model: readingModel) } catch {
                screen.stop()
                printError("vellum: \(status); the file cannot be opened again: \(error)")
                return 1
            }
            reopened = status
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
