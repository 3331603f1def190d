import VellumStore

/// The argument of `:sort`: `KEY [asc|desc]`, or keys separated by commas, each
/// descending when it starts with `-` (`name,-price`), the first the primary
/// order. Anything else is refused with the reason, never guessed.
enum SortArgument {
    /// The sort descriptors, or why the argument is refused (empty: unsorted).
    static func parse(_ argument: String) -> Result<[VellumStore.QuerySortDescriptor], SortArgumentError> {
        let words = argument.split(separator: " ").map(String.init)
        guard let first = words.first else { return .success([]) }
        if !first.contains(",") && !first.hasPrefix("-") {
            // One key with an optional direction word after it.
            guard words.count <= 2, let ascending = SortDirectionWord.ascending(words.dropFirst().first) else {
                return .failure(SortArgumentError("'\(words.dropFirst().joined(separator: " "))' is not a direction (asc or desc)"))
            }
            return .success([VellumStore.QuerySortDescriptor(first, ascending: ascending)])
        }
        let keys = words.joined().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var sorts: [VellumStore.QuerySortDescriptor] = []
        for key in keys {
            let name = key.hasPrefix("-") ? String(key.dropFirst()) : key
            guard !name.isEmpty, !name.contains("-") else { return .failure(SortArgumentError("'\(key)' is not a key (write name,-price)")) }
            guard !sorts.contains(where: { $0.keyPath == [name] }) else { return .failure(SortArgumentError("'\(name)' is listed twice")) }
            sorts.append(VellumStore.QuerySortDescriptor(name, ascending: !key.hasPrefix("-")))
        }
        return .success(sorts)
    }
}

struct SortArgumentError: Error, Equatable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
