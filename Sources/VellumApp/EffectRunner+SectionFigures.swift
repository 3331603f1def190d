import Foundation
import VellumStore

/// `:group KEY sum(price)`: each section's figure, one SQL `GROUP BY` over the list's
/// filter, again after changes (at most twice a second: a writer changing rows
/// continuously costs one query per half second, not one per change). The query runs on
/// a reader of the figures' own, off the main thread; the figures come back as an input.
extension EffectRunner {
    func refreshSectionFigures() {
        guard let aggregate = state.sectionAggregate, let key = state.groupKey, let request = currentRequest() else { return }
        let reader: BackgroundContext
        do { reader = try figuresReader ?? container.newBackgroundContext() } catch {
            return send(.status("\(aggregate.label): \(describe(error))", error: true))
        }
        figuresReader = reader
        figuresGeneration += 1
        let generation = figuresGeneration
        let function = aggregate.function, attribute = aggregate.attribute
        figuresTask = Task { [weak self] in
            let groups: [String?: Value]
            do {
                groups = try await reader.perform { ctx in try ctx.aggregate(request, function, of: attribute, groupedBy: key) }
            } catch {
                guard let self, generation == figuresGeneration else { return }
                send(.status("\(aggregate.label): \(describe(error))", error: true))
                return redraw()
            }
            guard let self, generation == figuresGeneration else { return }   // a newer refresh is under way
            var figures: [String: String] = [:]
            // Named as the headers name sections (`ResultsRowSource.sectionHeaders`).
            for (name, value) in groups { figures[name.map { $0.isEmpty ? "\"\"" : $0 } ?? "∅"] = SectionAggregate.text(value) }
            send(.result(.sectionFigures(figures)))
            redraw()
        }
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
