import Foundation

/// The one owner of an app's sends: the install's updater and every re-engagement's send through it, so that no
/// conversion's update lands in another's postback.
///
/// iOS copies every SKAdNetwork update into AdAttributionKit without a tag or a conversion type, and such an update
/// reaches the most recent conversion (AdAttributionKit, "AdAttributionKit and SKAdNetwork interoperability",
/// "Identifying conversion values with conversion tags"): once the app was opened from a re-engagement ad, the
/// install's SKAdNetwork updates land in the re-engagement's postback. So while the latest re-engagement's windows
/// are open, the coordinator
/// - sends such an install update without its lock (a lock would close the re-engagement's window on the
///   install's values; the install's own postbacks keep their values, since the updater sends nothing more in a
///   window it locked, and are sent at the window's end instead of early), and
/// - has the re-engagement's updater send its own current values again right after, so its postback ends up
///   holding them, with its own coarse value and lock;
/// - drops the updates of an earlier re-engagement that would reach the latest one (untagged, iOS 17.5-18.3): the
///   new conversion has locked the earlier one's postbacks anyway.
///
/// Updaters made with the default client use `shared`; an updater given any other client uses that client's one
/// coordinator (`coordinator(for:)`), so updaters cannot opt out of it by each having a client of their own.
public final class PostbackCoordinator: PostbackClient, @unchecked Sendable {
    /// The app's coordinator over the system's frameworks (a recording client where they do not exist).
    public static let shared = PostbackCoordinator(client: defaultPostbackClient())

    /// The client that reaches the frameworks.
    public let client: any PostbackClient
    private let lock = NSLock()
    private var reengagements: [Registration] = []
    private var registrations = 0

    private struct Registration {
        let open: ReengagementOpen
        let order: Int
        weak var updater: (any ReengagementUpdating)?
    }

    /// A coordinator of the sends through `client`.
    public init(client: any PostbackClient) {
        self.client = client
    }

    /// `client`'s frameworks.
    public func frameworks(for conversion: Conversion) -> [AttributionFramework] {
        client.frameworks(for: conversion)
    }

    /// `client`'s refusals.
    public func refusal(_ error: any Error, from framework: AttributionFramework) -> PostbackRefusal {
        client.refusal(error, from: framework)
    }

    /// `client`'s reach.
    public func reach(of conversion: Conversion, through framework: AttributionFramework) -> PostbackReach {
        client.reach(of: conversion, through: framework)
    }

    /// Sends `update` through `client`, keeping every conversion's postback its own (see the type's discussion).
    public func send(
        _ update: ConversionValueUpdate, of conversion: Conversion, through framework: AttributionFramework
    )
        async throws
    {
        let reach = client.reach(of: conversion, through: framework)
        guard reach != .itsConversion, let latest = await latestReengagement() else {
            return try await client.send(update, of: conversion, through: framework)
        }
        switch conversion {
        case .install:
            guard reach == .latestConversion else {
                return try await client.send(update, of: conversion, through: framework)
            }
            var unlocked = update
            unlocked.lockWindow = false
            do {
                try await client.send(unlocked, of: conversion, through: framework)
            } catch {
                await latest.updater.reassert()
                throw error
            }
            await latest.updater.reassert()
        case .reengagement(let open):
            // An earlier re-engagement's untagged update would reach the latest one's postback.
            guard open == latest.open else { return }
            try await client.send(update, of: conversion, through: framework)
        }
    }

    /// Counts `updater` as the re-engagement opened by `open`, replacing an earlier updater of the same open.
    func register(_ updater: any ReengagementUpdating, for open: ReengagementOpen) {
        lock.withLock {
            reengagements.removeAll { $0.open == open || $0.updater == nil }
            registrations += 1
            reengagements.append(Registration(open: open, order: registrations, updater: updater))
        }
    }

    /// The re-engagement whose conversion is the most recent one, when its windows are still open: the latest open
    /// whose conversion was not refused (a tag AdAttributionKit does not know is an open that made no conversion,
    /// as rate limits and cooldowns do).
    private func latestReengagement() async -> (open: ReengagementOpen, updater: any ReengagementUpdating)? {
        let newestFirst = lock.withLock {
            reengagements.sorted { ($0.open.openedAt, $0.order) > ($1.open.openedAt, $1.order) }
                .compactMap { registration in registration.updater.map { (registration.open, $0) } }
        }
        for (open, updater) in newestFirst {
            switch await updater.conversionStatus {
            case .refused: continue
            case .open: return (open, updater)
            case .over: return nil
            }
        }
        return nil
    }
}

/// What the coordinator asks of a re-engagement's updater.
protocol ReengagementUpdating: AnyObject, Sendable {
    /// Whether the conversion exists as far as the updater knows, and whether its windows are open.
    var conversionStatus: ReengagementStatus { get async }
    /// Sends the current values of the current window again, unless the window is locked.
    func reassert() async
}

/// A re-engagement conversion as its updater sees it.
enum ReengagementStatus {
    /// AdAttributionKit refused its updates for good: the open made no conversion.
    case refused
    /// Its windows are open.
    case open
    /// Its windows are over.
    case over
}
