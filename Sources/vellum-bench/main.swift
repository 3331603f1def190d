import Foundation

// vellum-bench [NAME-FILTER] [--json]
// (internal: vellum-bench --child WORKLOAD ARG..., see Memory and Suite.runChild)
// Top-level code runs on the main actor; the awaits below let the main queue run
// (view-context merges are delivered there).

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child" {
        try Suite.runChild(Array(arguments.dropFirst()))
        exit(0)
    }
    var filter: String?
    var json = false
    for a in arguments {
        switch a {
        case "--json": json = true
        case "--help", "-h":
            print("usage: vellum-bench [NAME-FILTER] [--json]\nbenchmarks: \(Suite.names.joined(separator: ", "))")
            exit(0)
        default:
            if a.hasPrefix("-") { throw BenchError("unknown option '\(a)'") }
            if filter != nil { throw BenchError("only one NAME-FILTER is allowed") }
            filter = a
        }
    }
    let suite = try Suite()
    // The suite is not deinitialized before the process ends after a run (its deinit
    // never ran): its scratch directory, hundreds of MB of stores, is removed here.
    defer { suite.removeScratch() }
    let selected = suite.benchmarks.filter { filter == nil || $0.name.contains(filter!) }
    if selected.isEmpty { throw BenchError("no benchmark matches '\(filter ?? "")'") }
    var results: [Result] = []
    for b in selected {
        FileHandle.standardError.write(Data("running \(b.name)…\n".utf8))
        let r: Result
        do { r = Result(name: b.name, unit: b.unit, measurement: try await b.run()) } catch let s as Skipped {
            r = Result(name: b.name, unit: b.unit, measurement: Measurement(value: .nan), skipped: s.reason)
        }
        results.append(r)
        if json { print(Report.jsonLine(r)) }
    }
    if !json { print(Report.table(results), terminator: "") }
} catch {
    FileHandle.standardError.write(Data("vellum-bench: \(error)\n".utf8))
    exit(1)
}
