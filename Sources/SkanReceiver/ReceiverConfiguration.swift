package import SkanPostbacks
package import SkanSchema

/// What `skanc serve` is told: where to listen and store, what to verify with, and its bounds.
package struct ReceiverConfiguration {
    package var data: String
    package var listen = "127.0.0.1:8080"
    package var adminListen: String?
    /// The schemas for `/report`: one app's versions live together, or many apps' (`--schemas DIR`), each
    /// postback counted for its own app; nil: no report route.
    package var catalog: SchemaCatalog?
    /// One app's versions for `/report` (`--schema`); nil when there are none or many apps'.
    package var versions: LiveVersions? {
        get { catalog.flatMap { $0.routesByApp ? nil : $0.apps[0].versions } }
        set { catalog = newValue.map(SchemaCatalog.init) }
    }
    package var verification: PostbackVerification? = PostbackVerification()
    /// Real postbacks are under 1 KiB (Apple's examples and the benchmark's 33,000: at most 749 bytes); a
    /// larger body is answered 413 before it is read.
    package var maxBody = 4 * 1024
    /// Connections on the public port at once; more wait to be accepted.
    package var maxConnections = 1024
    /// Connections on the admin port at once, apart from the public ones: a flood never locks the operator out.
    package var maxAdminConnections = 16
    /// When set, the admin routes answer only requests with `Authorization: Bearer <token>` (else 401).
    package var adminToken: [UInt8]?
    /// Where every stored postback is sent on to, and whether development postbacks are too.
    package var forwards: [ForwardDestination] = []
    package var forwardsDevelopment = false

    /// Whether postbacks that name one of Apple's development keys are stored apart, in `DATA/development`,
    /// verified first, never counted or forwarded: unless they are asked for as production (`--allow-development`
    /// or `--forward-development`).
    package var keepsDevelopmentApart: Bool {
        !forwardsDevelopment && verification?.allowDevelopment != true
    }

    /// Seconds a destination has to accept a connection, and to answer a postback.
    package var forwardTimeout = 10.0
    /// How many stored postbacks may fail verification in an hour before such postbacks are verified first;
    /// nil: no quota.
    package var unverifiedQuota: UnverifiedQuota.Settings? = UnverifiedQuota.Settings()
    /// What one client address may take.
    package var clientLimits = ClientLimits.Settings()
    /// Seconds a client has to send a whole request once it starts one (slow headers or body: 408).
    package var requestTimeout = 10.0
    /// Seconds a keep-alive connection may stay idle between requests.
    package var idleTimeout = 60.0
    /// The folder `skanc publish` writes, served at `/schemas/`; nil: no such route.
    package var schemas: String?
    /// Names this receiver's segments apart from others' sharing the store.
    package var instance: String

    package init(data: String, instance: String) {
        self.data = data
        self.instance = instance
    }
}
