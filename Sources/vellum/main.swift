import Foundation

// Top-level `await`: async commands run here; the main queue keeps being serviced.
exit(await VellumCLI.main(Array(CommandLine.arguments.dropFirst())))
