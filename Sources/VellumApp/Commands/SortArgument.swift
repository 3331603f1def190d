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
            guard !sorts.contains(where: { $0.keyPath == VellumStore.QuerySortDescriptor(name).keyPath }) else {
                return .failure(SortArgumentError("'\(name)' is listed twice"))
            }
            sorts.append(VellumStore.QuerySortDescriptor(name, ascending: !key.hasPrefix("-")))
        }
        return .success(sorts)
    }
}

extension SortArgument {
    /// A relationship column's name stands for what the column sorts by: `provider`
    /// for `provider.name` (its display key), `images` for `images.@count`.
    static func throughRelationshipColumns(_ sorts: [VellumStore.QuerySortDescriptor], _ s: AppState)
        -> Result<[VellumStore.QuerySortDescriptor], SortArgumentError> {
        var result: [VellumStore.QuerySortDescriptor] = []
        for var d in sorts {
            if d.keyPath.count == 1, let r = s.relationshipColumn(d.keyPath[0]) {
                guard let path = s.sortKeyPath(ofColumn: r.name) else {
                    return .failure(SortArgumentError("\(r.destination) has no name-like attribute to sort \(r.name) by (:display KEY names one)"))
                }
                d.keyPath = path
            }
            result.append(d)
        }
        return .success(result)
    }
}

struct SortArgumentError: Error, Equatable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
