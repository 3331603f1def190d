import Foundation

/// The identity of a managed object: `Sendable`, so it crosses contexts and
/// threads where managed objects cannot. Temporary until the object's first save.
public struct ObjectID: Sendable, Hashable, CustomStringConvertible, Comparable {
    public enum Key: Sendable, Hashable {
        case permanent(Int64)
        case temporary(UUID)
    }

    /// Entity, root and store names, shared by every ID of one entity in one store
    /// (one reference instead of three strings keeps IDs small and cheap to copy).
    /// Strong: an ID held after its store closed still names its entity and store,
    /// and keeps its scope the interned one (see `ObjectIDScopeTable`).
    let scope: ObjectIDScope
    public let key: Key

    /// The entity the object is known to be (for hierarchies, possibly an ancestor of the row's entity).
    public var entityName: String { scope.entityName }
    /// The root entity, whose table holds the row; identity is (root, key, store).
    public var rootName: String { scope.rootName }
    /// The store's UUID (empty for temporary IDs).
    public var storeIdentifier: String { scope.storeIdentifier }

    public init(entityName: String, rootName: String, key: Key, storeIdentifier: String) {
        self.scope = ObjectIDScope.intern(entityName: entityName, rootName: rootName, storeIdentifier: storeIdentifier)
        self.key = key
    }

    init(scope: ObjectIDScope, key: Key) {
        self.scope = scope
        self.key = key
    }

    public var isTemporary: Bool { if case .temporary = key { return true } else { return false } }

    /// The row's primary key, for permanent IDs.
    public var primaryKey: Int64? { if case .permanent(let pk) = key { return pk } else { return nil } }

    /// `vellum://<store>/<Entity>/p<pk>`; temporary: `vellum:///<Entity>/t<UUID>`. In a Core Data
    /// store, Core Data's own form: `x-coredata://<Z_UUID>/<Entity>/p<Z_PK>`.
    public var uriString: String {
        switch key {
        case .permanent(let pk): return "\(scope.uriScheme)://\(storeIdentifier)/\(entityName)/p\(pk)"
        case .temporary(let u): return "vellum:///\(entityName)/t\(u.uuidString)"
        }
    }

    public var uri: URL { URL(string: uriString)! }

    public var description: String { uriString }

    public static func == (a: ObjectID, b: ObjectID) -> Bool {
        a.key == b.key && (a.scope === b.scope || (a.scope.rootName == b.scope.rootName && a.scope.storeIdentifier == b.scope.storeIdentifier))
    }

    public func hash(into hasher: inout Hasher) {
        switch key {
        case .permanent(let pk): hasher.combine(pk)
        case .temporary(let u): hasher.combine(u)
        }
    }

    /// Orders by root entity, then permanent keys ascending, then temporary IDs:
    /// the tie-breaker that makes every sort order total.
    public static func < (a: ObjectID, b: ObjectID) -> Bool {
        if a.scope !== b.scope && a.rootName != b.rootName { return a.rootName < b.rootName }
        switch (a.key, b.key) {
        case (.permanent(let x), .permanent(let y)): return x < y
        case (.permanent, .temporary): return true
        case (.temporary, .permanent): return false
        case (.temporary(let x), .temporary(let y)):
            // Byte order of the UUIDs: total and cheap (no string formatting).
            return withUnsafeBytes(of: x.uuid) { a in withUnsafeBytes(of: y.uuid) { b in memcmp(a.baseAddress!, b.baseAddress!, 16) < 0 } }
        }
    }

    /// The URI scheme of Vellum's object IDs, and of Core Data's.
    public static let vellumScheme = "vellum", coreDataScheme = "x-coredata"

    /// Parses a URI produced by `uriString` (either scheme); the caller resolves the root via its model.
    public static func parse(_ uri: String) -> (store: String, entity: String, key: Key)? {
        guard let scheme = [vellumScheme, coreDataScheme].first(where: { uri.hasPrefix($0 + "://") }) else { return nil }
        let rest = uri.dropFirst(scheme.count + 3)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let tag = parts[2].first else { return nil }
        let body = String(parts[2].dropFirst())
        switch tag {
        case "p": return Int64(body).map { (String(parts[0]), String(parts[1]), .permanent($0)) }
        case "t": return UUID(uuidString: body).map { (String(parts[0]), String(parts[1]), .temporary($0)) }
        default: return nil
        }
    }
}

/// The names an object ID carries, interned so that equal scopes are one object.
final class ObjectIDScope: Sendable {
    let entityName: String
    let rootName: String
    let storeIdentifier: String
    /// `vellum`, or `x-coredata` for a Core Data store's IDs (given when the store's scopes are first interned).
    let uriScheme: String
    /// The scope of the root entity in the same store (nil when this is it).
    /// Interned while any scope or ID holds it, so its identity names (store, root table).
    private let root: ObjectIDScope?

    private init(entityName: String, rootName: String, storeIdentifier: String, uriScheme: String, root: ObjectIDScope?) {
        self.entityName = entityName
        self.rootName = rootName
        self.storeIdentifier = storeIdentifier
        self.uriScheme = uriScheme
        self.root = root
    }

    var isRoot: Bool { root == nil }

    /// Equal for every scope of one root table in one store: IDs that can be equal share it.
    var rootIdentity: ObjectIdentifier { ObjectIdentifier(root ?? self) }

    private static let table = Locked(ObjectIDScopeTable())

    static func intern(entityName: String, rootName: String, storeIdentifier: String, uriScheme: String = ObjectID.vellumScheme) -> ObjectIDScope {
        let root = entityName == rootName ? nil : intern(entityName: rootName, rootName: rootName, storeIdentifier: storeIdentifier, uriScheme: uriScheme)
        let key = storeIdentifier + "\u{0}" + rootName + "\u{0}" + entityName
        return table.withLock { table in
            table.scope(for: key) {
                ObjectIDScope(entityName: entityName, rootName: rootName, storeIdentifier: storeIdentifier, uriScheme: uriScheme, root: root)
            }
        }
    }

    /// Scopes in the intern table now (tests check that it stays bounded).
    static var internedCount: Int { table.withLock { $0.count } }
}
