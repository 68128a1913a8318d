#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// A request from a page (over the WebSocket or `POST /api`), in previewd's own shape
/// `{"id": N, "cmd": "...", "args": {...}}`, checked against the commands a remote may use: the
/// `.web` rows of previewd's verb table (`ControlVerb.all`): playing, the queue, the catalog, saved
/// lists. Not `subscribe`, `artwork` (previewd-web's own routes ask for that), `memory`, `forget`,
/// `rename` and the like.
struct PageRequest: Sendable {
    /// The page's id, echoed in the answer (absent: none echoed).
    let id: JSONValue?
    /// The command.
    let cmd: String
    /// Its arguments.
    let args: [String: JSONValue]?

    /// Why a request could not be taken: the answer to send instead.
    struct Rejection: Error {
        let id: JSONValue?
        let answer: JSONValue
        /// Not a request at all (not an object, no cmd): `POST /api` answers 400; a command outside
        /// the list gets previewd's kind of answer, 200.
        var malformed = true
    }

    /// Reads one request from `bytes`.
    static func parse(_ bytes: some Collection<UInt8>) throws(Rejection) -> PageRequest {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)), case .object(let object) = value else {
            throw Rejection(id: nil, answer: DaemonLink.failure("bad-request", "a request is one JSON object"))
        }
        let id = object["id"]
        if let id, id.intValue == nil {
            throw Rejection(id: nil, answer: DaemonLink.failure("bad-request", "id must be an integer"))
        }
        guard let cmd = object["cmd"]?.stringValue else {
            throw Rejection(id: id, answer: DaemonLink.failure("bad-request", "cmd must be a string"))
        }
        guard ControlVerb.named(cmd)?.access == .web else {
            throw Rejection(id: id, answer: DaemonLink.failure("bad-request", "\(cmd) is not allowed from the web remote"), malformed: false)
        }
        switch object["args"] {
        case nil, .null?: return PageRequest(id: id, cmd: cmd, args: nil)
        case .object(let args)?: return PageRequest(id: id, cmd: cmd, args: args)
        default: throw Rejection(id: id, answer: DaemonLink.failure("bad-request", "args must be an object"))
        }
    }

    /// `answer` (from `DaemonLink.call`) with the page's `id` put back, as one line of JSON text.
    static func text(of answer: JSONValue, id: JSONValue?) -> String {
        var answer = answer
        if case .object(var object) = answer, let id {
            object["id"] = id
            answer = .object(object)
        }
        guard var bytes = JSONLine.encode(answer) else { return #"{"ok":false,"error":{"code":"internal","message":"unencodable answer"}}"# }
        bytes.removeLast()  // the newline: a WebSocket message or an HTTP body needs none
        return String(decoding: bytes, as: UTF8.self)
    }
}
