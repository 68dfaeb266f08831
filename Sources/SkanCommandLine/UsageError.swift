/// A wrong command line: the message, and the command whose help to point at.
package struct UsageError: Error, Sendable, Equatable {
    package var message: String
    package var command: String?

    package init(message: String, command: String?) {
        self.message = message
        self.command = command
    }
}
