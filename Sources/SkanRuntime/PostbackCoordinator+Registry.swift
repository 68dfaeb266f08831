import Foundation

extension PostbackCoordinator {
    /// The one coordinator of the sends through `client`: `client` itself when it is a coordinator, else the
    /// coordinator every updater given the same client shares.
    ///
    /// An app that gives each updater a client of its own (`SystemPostbackClient()` here and there) still talks to
    /// one system, where an install's SKAdNetwork update lands in the latest re-engagement's postback; coordinators
    /// that do not know each other would let it (docs/Runtime.md, "Installs and re-engagements together"). So the
    /// same client gets the same coordinator: an object (a class or an actor) by its identity, a value by its type,
    /// since every value of a type reaches the same frameworks (as `SystemPostbackClient`'s do; the first one given
    /// does the sending). The default client's coordinator is `shared`.
    public static func coordinator(for client: any PostbackClient) -> PostbackCoordinator {
        if let coordinator = client as? PostbackCoordinator { return coordinator }
        return CoordinatorRegistry.instance.coordinator(for: client)
    }
}

/// The coordinators made for clients that were not one, held weakly: a coordinator lives while an updater uses it.
private final class CoordinatorRegistry: @unchecked Sendable {
    static let instance = CoordinatorRegistry()

    private struct Entry {
        weak var coordinator: PostbackCoordinator?
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    func coordinator(for client: any PostbackClient) -> PostbackCoordinator {
        let key = Self.key(of: client)
        return lock.withLock {
            if let coordinator = entries[key]?.coordinator { return coordinator }
            if Self.key(of: PostbackCoordinator.shared.client) == key { return PostbackCoordinator.shared }
            let coordinator = PostbackCoordinator(client: client)
            entries = entries.filter { $0.value.coordinator != nil }
            entries[key] = Entry(coordinator: coordinator)
            return coordinator
        }
    }

    /// An object's identity, a value's type. (An object's identifier is not reused while its coordinator, which
    /// holds it, lives.)
    private static func key(of client: any PostbackClient) -> ObjectIdentifier {
        if type(of: client) is AnyClass { return ObjectIdentifier(client as AnyObject) }
        return ObjectIdentifier(type(of: client))
    }
}
