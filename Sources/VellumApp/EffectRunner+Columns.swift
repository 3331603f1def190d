import Foundation
import VellumStore

extension EffectRunner {
    /// Keeps the layout in the user's state directory; a failure is said, the layout stays for this session.
    func saveColumnLayout(_ layout: ColumnLayout, for entity: String) {
        guard let layoutFile else { return }
        do { try layoutFile.save(layout, for: entity) } catch {
            send(.status("columns: cannot keep the layout in \(layoutFile.url.path): \(error.localizedDescription)", error: true))
        }
    }

    func saveSettings(_ settings: BrowserSettings) {
        guard let settingsFile else { return }
        do { try settingsFile.save(settings) } catch {
            send(.status("cannot keep the browser's settings in \(settingsFile.url.path): \(ErrorText.reason(error))", error: true))
        }
    }
}
