import Foundation

// vellum-bench [NAME-FILTER] [--json]
// (internal: vellum-bench --child WORKLOAD DIR, see Memory)

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child" {
        guard arguments.count == 3 else { throw BenchError("usage: vellum-bench --child WORKLOAD DIR") }
        try Suite.runChild(arguments[1], directory: URL(fileURLWithPath: arguments[2]))
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
    let selected = suite.benchmarks.filter { filter == nil || $0.name.contains(filter!) }
    if selected.isEmpty { throw BenchError("no benchmark matches '\(filter ?? "")'") }
    var results: [Result] = []
    for b in selected {
        FileHandle.standardError.write(Data("running \(b.name)…\n".utf8))
        let r = Result(name: b.name, unit: b.unit, measurement: try b.run())
        results.append(r)
        if json { print(Report.jsonLine(r)) }
    }
    if !json { print(Report.table(results), terminator: "") }
} catch {
    FileHandle.standardError.write(Data("vellum-bench: \(error)\n".utf8))
    exit(1)
}
