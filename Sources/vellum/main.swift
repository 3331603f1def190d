import Foundation

exit(VellumCLI.main(Array(CommandLine.arguments.dropFirst())))
