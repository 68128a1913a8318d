import ArgumentParser
import PreviewCore

/// previewctl's fast path for what status bars and media-key bindings run again and again:
/// `previewctl --version` and `previewctl [--json] [--socket PATH] WORD` for a `PlainCommand` WORD,
/// the global options before or after it. ArgumentParser reflects over every property wrapper of a
/// command at each start, which costs more than the whole round trip to previewd (docs/PERFORMANCE.md),
/// so these exact forms are read here; anything else, help and mistakes included, goes to ArgumentParser.
enum QuickPath {
    /// What `arguments` (without the program name) ask for, when they are one of the exact forms.
    enum Form: Equatable {
        case version
        case plain(PlainCommand, socket: String?, json: Bool)
    }

    /// The form of `arguments`, or nil when ArgumentParser must read them.
    static func form(_ arguments: [String]) -> Form? {
        if arguments == ["--version"] { return .version }
        var command: PlainCommand?
        var socket: String?
        var json = false
        var rest = arguments[...]
        while let word = rest.popFirst() {
            if word == "--json", !json {
                json = true
            } else if word == "--socket", socket == nil, let path = rest.popFirst(), !path.hasPrefix("-") {
                socket = path
            } else if word.hasPrefix("--socket="), socket == nil, word.count > "--socket=".count {
                socket = String(word.dropFirst("--socket=".count))
            } else if command == nil, let plain = PlainCommand(rawValue: word) {
                command = plain
            } else {
                return nil
            }
        }
        return command.map { .plain($0, socket: socket, json: json) }
    }

    /// Runs `arguments` when they are a fast form and returns the exit status; nil otherwise.
    static func run(_ arguments: [String]) -> Int32? {
        switch form(arguments) {
        case nil:
            return nil
        case .version:
            Output.print(PreviewVersion.string)
            return 0
        case .plain(let command, let socket, let json)?:
            do {
                try command.run(Invocation(socket: socket, json: json))
                return 0
            } catch let status as ExitCode {
                return status.rawValue
            } catch {
                Output.error("\(error)")
                return 1
            }
        }
    }
}
