import Foundation
import VellumStore

/// `:group KEY sum(price)`: each section's figure, one SQL `GROUP BY` over the list's
/// filter, again after changes (at most twice a second: a writer changing rows
/// continuously costs one query per half second, not one per change).
extension EffectRunner {
    func refreshSectionFigures() {
        guard let aggregate = state.sectionAggregate, let key = state.groupKey, let request = currentRequest() else { return }
        do {
            let groups = try context.aggregate(request, aggregate.function, of: aggregate.attribute, groupedBy: key)
            var figures: [String: String] = [:]
            // Named as the headers name sections (`ResultsRowSource.sectionHeaders`).
            for (name, value) in groups { figures[name.map { $0.isEmpty ? "\"\"" : $0 } ?? "∅"] = SectionAggregate.text(value) }
            send(.result(.sectionFigures(figures)))
        } catch {
            send(.status("\(aggregate.label): \(describe(error))", error: true))
        }
        redraw()
    }

    func scheduleSectionFigures() {
        guard !sectionFiguresScheduled else { return }
        sectionFiguresScheduled = true
        Task { @MainActor [weak self] in
            try? await Task.sleep(nanoseconds: 500_000_000)
            guard let self else { return }
            sectionFiguresScheduled = false
            refreshSectionFigures()
        }
    }
}
