// The names VellumStore used before issue 16, for code not yet moved to the new ones:
// `import VellumStoreDeprecatedNames` instead of `import VellumStore`. They are a module of
// their own because an alias named Predicate inside VellumStore would clash with Foundation.
@_exported import VellumStore

@available(*, deprecated, renamed: "QueryPredicate", message: "Foundation also declares Predicate")
public typealias Predicate = VellumStore.QueryPredicate
@available(*, deprecated, renamed: "QuerySortDescriptor", message: "Foundation also declares SortDescriptor")
public typealias SortDescriptor = VellumStore.QuerySortDescriptor
@available(*, deprecated, renamed: "QueryExpression", message: "Foundation also declares Expression")
public typealias Expression = VellumStore.QueryExpression
