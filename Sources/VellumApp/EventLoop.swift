import Foundation
import VellumStore
import VellumTerminal

/// The one loop that owns the state. It runs on the main queue and sleeps until
/// something happens: stdin becomes readable (a dispatch read source), the state
/// asks for a redraw (merged saves from the write queue or other processes reach
/// the view context as main-queue work), or a 100 ms timer fires (resize, flash
/// expiry). Then it drains the keys, updates, and redraws if anything changed.
/// Nothing blocks the main queue: writes go to the write queue, long reads (filter, sort,
/// group, summary, find, deletion preview, export) to a reader of their own
/// (`EffectRunner.runInBackground`), whose result wakes the loop like a merged save.
@MainActor
final class EventLoop {
    let session: BrowserSession
    let screen: Screen
    let fileName: String
    var theme: Theme
    let loader = ThemeLoader()
    /// Set when another program changed the schema of the open file: the loop ends
    /// so that the browser opens it again (`SchemaReopen`).
    var schemaChange: String?
    /// The status already says a schema change waits for the edit in progress.
    private var schemaChangeAnnounced = false
    /// Set when the user changed how the file's changes are learnt (`:track`, `:track off`):
    /// the loop ends so that the browser opens it again, with this status and entity.
    var reopening: (status: String, entity: String?)?

    /// A schema change opens the file again at once, unless the user is typing something
    /// not yet saved (an edit, a new record's form, a copy's values, a conflict's answer):
    /// reopening would drop it, so the status says the change waits, and the file is opened
    /// again as soon as that ends (saved or cancelled).
    private func schemaChangeReopensNow(_ change: String) -> Bool {
        guard session.state.holdsUnsavedInput else { return true }
        if !schemaChangeAnnounced {
            schemaChangeAnnounced = true
            session.setStatus(SchemaReopen.waitingStatus(change))
            session.needsRedraw = true
        }
        return false
    }

    init(session: BrowserSession, screen: Screen, fileName: String, theme: Theme) {
        self.session = session
        self.screen = screen
        self.fileName = fileName
        self.theme = theme
    }

    func run() async {
        var lastSize = screen.size
        // The first screen comes from the first page of rows; the rest is indexed after it shows.
        draw(lastSize)
        session.needsRedraw = false
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { wake.yield() }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(10))
        timer.setEventHandler { wake.yield() }
        session.onNeedsRedraw = { wake.yield() }
        // Continued after a stop from outside (kill -STOP, a debugger): the
        // shell may have drawn over the screen, so everything is repainted.
        // Observed like every other signal, by the one `SignalObserver` kind.
        let continued = SignalObserver(signals: [SIGCONT], queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.repaintAll() }
            wake.yield()
        }
        input.resume()
        timer.resume()
        defer {
            input.cancel()
            timer.cancel()
            continued.cancel()
            session.onNeedsRedraw = nil
        }
        wake.yield()
        for await _ in wakeups {
            if session.runner.completeIndexing() { session.needsRedraw = true }
            // Every key that is already there, without waiting for more.
            var quit = false, keys = 0
            while !quit, let key = screen.readKey(timeoutMilliseconds: 0) {
                keys += 1
                if key == .resize { session.needsRedraw = true }
                session.setTerminalTooSmall(Layout.isTooSmall(screen.size))
                for request in await session.dispatch(key) { quit = perform(request) || quit }
            }
            // The terminal went away: nobody can answer, so vellum ends as on SIGHUP
            // (writes already queued finish; nothing typed and unsaved can be kept).
            if keys == 0, screen.inputHungUp { break }
            if quit || reopening != nil { break }
            if let change = schemaChange, schemaChangeReopensNow(change) { break }
            _ = session.tick()
            let size = screen.size
            if size != lastSize { lastSize = size; session.needsRedraw = true }
            if session.needsRedraw {
                session.needsRedraw = false
                draw(size)
            }
        }
    }

    /// After SIGCONT: the terminal's contents are unknown, so the next draw paints every cell.
    private func repaintAll() {
        screen.repaintAll()
        session.needsRedraw = true
    }

    /// Acts on what a key asked of the terminal; true when it asked to quit.
    private func perform(_ request: TerminalRequest) -> Bool {
        switch request {
        case .quit: return true
        case .setTheme(let name): applyTheme(name)
        case .copyToClipboard(let text): screen.copyToClipboard(text)
        case .setMouseCapture(let on): screen.setMouseCapture(on)
        case .suspend:
            screen.suspend()
            session.needsRedraw = true
        case .reopen(let status, let entity): reopening = (status, entity)
        }
        return false
    }

    func applyTheme(_ name: String) {
        let (loaded, error) = Self.loadTheme(name, loader: loader, capability: screen.colorCapability)
        theme = loaded
        screen.setExactColors(loaded.exactColors)
        session.send(.themeLoaded(name: loaded.name, error: error?.description))
        session.needsRedraw = true
    }

    static func loadTheme(_ name: String, loader: ThemeLoader, capability: ColorCapability) -> (Theme, ThemeError?) {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        return loader.loadWithFallback(named: name, capability: noColor ? .none : capability)
    }

    private func draw(_ size: TerminalSize) {
        if Layout.isTooSmall(size) {
            Renderer.drawTooSmall(size: size, ignoredKeys: session.state.ignoredKeys, on: screen)
            return
        }
        let layout = Layout(size: size, detailSteps: session.state.detailSteps)
        session.setLayout(layout)
        Renderer.draw(session.viewModel(layout: layout, fileName: fileName), theme: theme, on: screen)
    }
}
