import Foundation

/// A yes/no question on the terminal (standard input); anything but y/yes is no.
enum Confirmation {
    static func ask(_ question: String, yes: Bool, console: Console) throws -> Bool {
        if yes { return true }
        console.err("\(question) [y/N] ")
        guard let answer = readLine() else {
            console.err("\n")
            return false
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
