import Foundation

/// What a program run by `runProgram` did: its exit status and its output
/// (standard output and standard error, interleaved as written).
public struct ProgramRun: Sendable {
    public var status: Int32
    public var output: String
}

/// Runs a short-lived program to its end and captures its output — a program a
/// test built, a compiler, an example. (Long-lived helpers start with `CleanSpawn`.)
public func runProgram(_ executable: URL, _ arguments: [String] = [], in directory: URL? = nil) throws -> ProgramRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProgramRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
}
