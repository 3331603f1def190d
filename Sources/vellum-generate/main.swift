import Foundation
import VellumStore

// The build plugin's tool: `vellum-generate MODEL OUTPUT-DIR` writes OUTPUT-DIR/NAME.swift
// (as `vellum generate MODEL --output DIR`, without the terminal browser's dependencies).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: vellum-generate MODEL OUTPUT-DIR\n".utf8))
    exit(2)
}
let model = URL(fileURLWithPath: arguments[arguments.startIndex])
let output = URL(fileURLWithPath: arguments[arguments.startIndex + 1])
do {
    try SwiftEntityGenerator(modelAt: model).write(into: output, fileName: SwiftEntityGenerator.outputFileName(forModelAt: model))
} catch {
    FileHandle.standardError.write(Data("vellum-generate: \(model.path): \(error)\n".utf8))
    exit(1)
}
