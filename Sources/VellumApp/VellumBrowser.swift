import Foundation
import VellumStore
import VellumTerminal

/// Public entry point of the interactive browser.
public enum VellumBrowser {
    /// Opens `storePath` and runs the browser until the user quits. Returns the exit code;
    /// errors (missing file, not a store, no terminal, too small) are printed to stderr.
    @MainActor
    /// With `model` (`--model NEW`), a store holding another model is migrated first if the user agrees (`MigrationPrompt`).
    public static func run(storePath: String, themeName: String?, readOnly askedReadOnly: Bool = false,
                           model: (model: ManagedObjectModel, name: String)? = nil) async throws -> Int32 {
        let onServer = PersistentStore.isServerLocation(storePath)
        guard onServer || FileManager.default.fileExists(atPath: storePath) else {
            printError("vellum: no such file: \(storePath)")
            return 1
        }
        // A store the user cannot write is browsed read-only (the status line says why).
        let readOnly = askedReadOnly || (!onServer && !PersistentStore.isWritable(storePath))
        if let model, case .exit(let status) = MigrationPrompt.resolve(storePath: storePath, model: model.model,
                                                                         modelName: model.name, readOnly: readOnly) {
            return status
        }
        let container: PersistentContainer
        do {
            // Any SQLite database: another program's is opened through its inferred model.
            container = try PersistentContainer(store: PersistentStore.open(location: storePath, model: nil,
                                                                            options: StoreOptions(createIfMissing: false, readOnly: readOnly)))
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
        let (theme, themeError) = EventLoop.loadTheme(requested, loader: loader, capability: screen.colorCapability)
        screen.setExactColors(theme.exactColors)

        let session = BrowserSession(container: container,
                                     layoutFile: ColumnLayoutFile(environment: environment, storePath: storePath))
        session.send(.themeLoaded(name: theme.name, error: nil, quietly: true))
        let bindings = BindingsFile.load(environment: environment)
        session.send(.keyMapLoaded(bindings.keyMap))
        if let problem = bindings.summary { session.setStatus(problem, error: true) }
        if readOnly {
            let snapshot: Bool = container.store.readsSnapshot
            session.setStatus(ReadOnlyBrowsing.openedMessage(requested: askedReadOnly, snapshot: snapshot))
        }
        if let themeError { session.send(.themeLoaded(name: theme.name, error: themeError.description)) }
        let loop = EventLoop(session: session, screen: screen,
                             fileName: onServer ? container.store.path : URL(fileURLWithPath: storePath).lastPathComponent, theme: theme)
        await loop.run()
        return 0
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
