public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// What a fetch of a manifest or an artifact answered.
public enum SchemaFetch: Sendable, Equatable {
    /// 200: the bytes and the entity tag, if the server gave one.
    case fetched(Data, etag: String?)
    /// 304 to the entity tag sent: what is cached is current.
    case notModified
}

/// Fetches what `skanc publish` wrote; `URLSessionSchemaFetcher` in apps, a fake in tests.
public protocol SchemaFetcher: Sendable {
    /// GETs `url` (with `If-None-Match: etag` when given), within `timeout` seconds; throws for a transport error,
    /// a status other than 200 and 304, or an answer of more than `limit` bytes.
    func get(_ url: URL, etag: String?, timeout: Double, limit: Int) async throws -> SchemaFetch
}

/// Why a fetch failed.
public struct SchemaFetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}

/// Foundation's URLSession (FoundationNetworking on Linux): an ephemeral session (no cookies, no cache of its own:
/// the source keeps its cache and entity tags), one data task per GET.
public struct URLSessionSchemaFetcher: SchemaFetcher {
    private let session: URLSession

    /// A fetcher over `session`; by default an ephemeral one.
    public init(session: URLSession? = nil) {
        self.session = session ?? URLSession(configuration: .ephemeral)
    }

    /// The GET, through a data task (available on every OS the package supports).
    public func get(_ url: URL, etag: String?, timeout: Double, limit: Int) async throws -> SchemaFetch {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let task = TaskBox()
        let (data, response): (Data, URLResponse) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let dataTask = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                task.set(dataTask)
                dataTask.resume()
            }
        } onCancel: {
            task.cancel()
        }
        guard let http = response as? HTTPURLResponse else { throw SchemaFetchError(description: "not an HTTP answer") }
        switch http.statusCode {
        case 304: return .notModified
        case 200:
            guard data.count <= limit else {
                throw SchemaFetchError(description: "the answer has \(data.count) bytes, more than \(limit)")
            }
            return .fetched(data, etag: http.value(forHTTPHeaderField: "ETag"))
        default: throw SchemaFetchError(description: "the server answered \(http.statusCode)")
        }
    }
}

/// The data task of a fetch, for the cancellation handler (which may run on another thread, before or after the
/// task is made).
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func set(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = self.cancelled
        lock.unlock()
        if cancelled { task.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
