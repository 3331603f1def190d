#!/usr/bin/env bash
# Issue 16: VellumStore's public names no longer clash with Foundation's.
#   Predicate      -> QueryPredicate
#   SortDescriptor -> QuerySortDescriptor
#   Expression     -> QueryExpression
# Run from anywhere inside the repository, after every branch is merged:
#   bash scripts/rename-foundation-clashes.sh [REPO]
# Idempotent: a second run changes nothing. It rewrites whole words in the Swift and
# Markdown files of Sources Tests docs Examples README.md (never Foundation.Predicate,
# #Predicate, NSSortDescriptor, TypedPredicate, PredicateParser, ...), renames the three
# declaring files, and adds the opt-in module VellumStoreDeprecatedNames with deprecated
# aliases for the old names (a module of its own: an alias named Predicate inside
# VellumStore would clash with Foundation again, which is the whole point).
set -euo pipefail
repo="${1:-$(git rev-parse --show-toplevel)}"
cd "$repo"
compat="Sources/VellumStoreDeprecatedNames"

# 1. Whole-word renames (not after a word character, '#', or 'Foundation.').
files=$( { git ls-files -- 'Sources/*.swift' 'Tests/*.swift' 'Examples/*.swift' 'docs/*.md' 'README.md' 'Examples/*.md';
           git ls-files --others --exclude-standard -- 'Sources/*.swift' 'Tests/*.swift' 'Examples/*.swift' 'docs/*.md'; } \
         | grep -v "^$compat/" | sort -u)
for f in $files; do
  [ -f "$f" ] || continue
  perl -pi -e '
    s/(?<![\w#])(?<!Foundation\.)Predicate(?!\w)(?! literals)/QueryPredicate/g;
    s/(?<![\w#])(?<!Foundation\.)SortDescriptor(?!\w)/QuerySortDescriptor/g;
    s/(?<![\w#])(?<!Foundation\.)Expression(?!\w)(?! elements)/QueryExpression/g;
  ' "$f"
done

# 2. The declaring files carry the new names.
for pair in "Predicate:QueryPredicate" "SortDescriptor:QuerySortDescriptor" "Expression:QueryExpression"; do
  old="Sources/VellumStore/Query/${pair%%:*}.swift"; new="Sources/VellumStore/Query/${pair##*:}.swift"
  if [ -f "$old" ] && [ ! -f "$new" ]; then git mv "$old" "$new"; fi
done

# 3. Deprecated aliases in their own module (import VellumStoreDeprecatedNames instead of VellumStore).
mkdir -p "$compat"
cat > "$compat/DeprecatedNames.swift" <<'SWIFT'
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
SWIFT
if ! grep -q 'VellumStoreDeprecatedNames' Package.swift; then
  perl -0pi -e 's/(\n(\s*)\.library\(name: "VellumStore", targets: \["VellumStore"\]\),)/$1\n$2.library(name: "VellumStoreDeprecatedNames", targets: ["VellumStoreDeprecatedNames"]),/' Package.swift
  perl -0pi -e 's{(\n(\s*)\.target\(name: "VellumStore", dependencies: [^\n]*\),)}{$1\n$2// The names before issue 16, deprecated (scripts/rename-foundation-clashes.sh).\n$2.target(name: "VellumStoreDeprecatedNames", dependencies: ["VellumStore"]),}' Package.swift
  grep -q 'name: "VellumStoreDeprecatedNames", dependencies' Package.swift || { echo "rename-foundation-clashes.sh: could not add the target to Package.swift" >&2; exit 1; }
fi
echo "rename-foundation-clashes.sh: done (Predicate, SortDescriptor, Expression renamed; VellumStoreDeprecatedNames added)"
