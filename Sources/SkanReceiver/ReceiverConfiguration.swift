package import SkanCompiler
package import SkanPostbacks

/// What `skanc serve` is told: where to listen and store, what to verify with, and its bounds.
package struct ReceiverConfiguration {
    package var data: String
    package var listen = "127.0.0.1:8080"
    package var adminListen: String?
    /// The schemas (versions live together) for `/report`; nil: no report route.
    package var versions: LiveVersions?
    package var verification: PostbackVerification? = PostbackVerification()
    package var maxBody = 64 * 1024
    package var maxConnections = 1024
    /// Seconds a client has to send a whole request once it starts one (slow headers or body: 408).
    package var requestTimeout = 10.0
    /// Seconds a keep-alive connection may stay idle between requests.
    package var idleTimeout = 60.0
    /// Names this receiver's segments apart from others' sharing the store.
    package var instance: String

    package init(data: String, instance: String) {
        self.data = data
        self.instance = instance
    }
}
