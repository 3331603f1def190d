import Foundation

exit(await VellumCLI.mainAsync(Array(CommandLine.arguments.dropFirst())))
