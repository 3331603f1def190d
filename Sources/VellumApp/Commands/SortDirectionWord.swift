/// The words `:sort KEY [WORD]` accepts after the key: the direction, nothing else.
enum SortDirectionWord {
    /// true for ascending, false for descending, nil for a word that is not a direction.
    /// No word at all means ascending.
    static func ascending(_ word: String?) -> Bool? {
        switch word?.lowercased() {
        case nil, "asc", "ascending": return true
        case "desc", "descending": return false
        default: return nil
        }
    }
}
