import Foundation

extension PersistentContainer {
    /// A fetch as a stream of values: `for try await names in container.observe(request, { try $0["name"] })`.
    /// Emits the current results at once, then once per main-queue turn in which changes
    /// reach the view context (committed transactions are merged whole, so never a torn
    /// state). `transform` runs on the main actor over each object, in order; only its
    /// Sendable results leave. A transform or fetch error ends the stream with that error.
    /// The stream holds a results controller on the view context until it is cancelled
    /// or dropped.
    @MainActor
    public func observe<T: Sendable>(_ request: FetchRequest,
                                     _ transform: @escaping (ManagedObject) throws -> T) -> AsyncThrowingStream<[T], Error> {
        let (stream, continuation) = AsyncThrowingStream<[T], Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let controller = ResultsController(fetchRequest: request, context: viewContext)
        func emit() {
            do {
                var values: [T] = []
                for section in controller.sections.indices {
                    for item in 0..<controller.numberOfObjects(inSection: section) {
                        values.append(try transform(try controller.object(at: ResultsIndexPath(item: item, section: section))))
                    }
                }
                continuation.yield(values)
            } catch {
                continuation.finish(throwing: error)
            }
        }
        controller.onChangeSet = { _ in emit() }
        do { try controller.performFetch() } catch {
            continuation.finish(throwing: error)
            return stream
        }
        emit()
        // The controller lives as long as the stream; it is released on the main actor.
        let holder = ControllerHolder(controller)
        continuation.onTermination = { _ in Task { @MainActor in holder.release() } }
        return stream
    }
}

/// Keeps an observation's results controller alive and hands it back to the main actor to end.
private final class ControllerHolder: @unchecked Sendable {
    // Unchecked: set once on the main actor, released there (`release()` is only called from it).
    private var controller: ResultsController?
    init(_ controller: ResultsController) { self.controller = controller }
    @MainActor func release() { controller?.onChangeSet = nil; controller = nil }
}
