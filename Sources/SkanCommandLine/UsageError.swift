/// A wrong command line: the message, and the command whose help to point at (nil inside a command's run: the
/// command that runs fills in its own name).
package struct UsageError: Error, Sendable, Equatable {
    package var message: String
    package var command: String?

    package init(message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
