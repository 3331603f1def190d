import Foundation

extension EffectRunner {
    /// Keeps the layout in the user's state directory; a failure is said, the layout stays for this session.
    func saveColumnLayout(_ layout: ColumnLayout, for entity: String) {
        guard let layoutFile else { return }
        do { try layoutFile.save(layout, for: entity) } catch {
            send(.status("columns: cannot keep the layout in \(layoutFile.url.path): \(error.localizedDescription)", error: true))
        }
    }
}
