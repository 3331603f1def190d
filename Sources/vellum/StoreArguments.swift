import VellumStore

/// What the store-opening commands (`browse`, `query`, `insert`, `update`, `delete`,
/// `watch`, `model`) take from their arguments about how to open the file: the mapping
/// onto another program's database (`--model`) and whether foreign keys are checked.
struct StoreArguments {
    /// Open another program's database as SQLite does by default: references not
    /// checked, `ON DELETE` actions not run (`StoreOptions.enforcesForeignKeys`).
    static let noForeignKeysFlag = "no-foreign-keys"
    static let help = """
          --no-foreign-keys  do not check the database's foreign keys (SQLite's own
                             default): nothing is refused, no ON DELETE action runs,
                             and deleting a referenced row leaves the rows that
                             refer to it as they are
        """

    /// `--model`: a mapping onto another program's database (JSON, Xcode model).
    var mappingPath: String?
    var enforcesForeignKeys = true

    /// Applies these choices to the options a command opens the store with.
    func apply(to options: inout StoreOptions) {
        options.enforcesForeignKeys = enforcesForeignKeys
    }
}

extension StoreArguments {
    // In an extension, so the memberwise initializer (and `StoreArguments()`) stays.
    init(_ arguments: ParsedArguments) {
        self.init(mappingPath: arguments.option("model"), enforcesForeignKeys: !arguments.has(Self.noForeignKeysFlag))
    }
}
