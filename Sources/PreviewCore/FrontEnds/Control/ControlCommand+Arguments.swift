#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks the verbs' parsers share: each argument's type and range, with a clear error.
extension ControlCommand {
    static func int(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Int? {
        guard let value = args[key], value != .null else { return nil }
        guard let n = value.intValue else { throw ControlError(.badArgument, "\"\(key)\" must be an integer") }
        return n
    }

    static func index(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Int? {
        let n = try int(args, key)
        if let n, n < 0 { throw ControlError(.badArgument, "\"\(key)\" must be an index, 0 or more (got \(n))") }
        return n
    }

    /// A queue item named by its position (`index`) or its id (`id`), not both; nil when neither is given.
    static func ref(_ args: [String: JSONValue], index indexKey: String = "index", id idKey: String = "id") throws(ControlError) -> QueueRef? {
        let index = try index(args, indexKey), id = try int(args, idKey)
        switch (index, id) {
        case (let index?, nil): return .index(index)
        case (nil, let id?):
            guard id > 0 else { throw ControlError(.badArgument, "\"\(idKey)\" must be a queue item's id, 1 or more (got \(id))") }
            return .id(id)
        case (nil, nil): return nil
        case (_?, _?): throw ControlError(.badArgument, "give \"\(indexKey)\" or \"\(idKey)\", not both")
        }
    }

    static func string(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> String? {
        guard let value = args[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw ControlError(.badArgument, "\"\(key)\" must be a string") }
        guard text.utf8.count <= 1000 else { throw ControlError(.badArgument, "\"\(key)\" is too long") }
        return text
    }

    /// A list name under `key` (default `name`), checked.
    static func listName(_ args: [String: JSONValue], _ key: String = "name") throws(ControlError) -> ListName {
        guard let text = try string(args, key) else { throw ControlError(.badArgument, "give the list's \"\(key)\"") }
        return try ListName(text)
    }

    static func bool(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Bool? {
        guard let value = args[key], value != .null else { return nil }
        guard let flag = value.boolValue else { throw ControlError(.badArgument, "\"\(key)\" must be true or false") }
        return flag
    }

    /// `append`, `at`, `play`, `queue`, `sort` and `desc` of a command that queues.
    static func enqueue(_ args: [String: JSONValue], play: Bool = true) throws(ControlError) -> Enqueue {
        var sort: TrackSort?
        if let key = try string(args, "sort") {
            guard let parsed = TrackSort.Key(rawValue: key) else {
                throw ControlError(.badArgument, "sort must be one of: \(TrackSort.Key.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            sort = TrackSort(parsed, descending: try bool(args, "desc") ?? false)
        }
        var at: InsertPosition?
        switch args["at"] {
        case nil, .null?: at = nil
        case .string("next")?: at = .next
        case .string("end")?: at = .end
        case let value?:
            guard let index = value.intValue, index >= 0 else {
                throw ControlError(.badArgument, "\"at\" must be a queue index (0 or more), \"next\" or \"end\"")
            }
            at = .index(index)
        }
        return Enqueue(append: try bool(args, "append") ?? false, play: try bool(args, "play") ?? play, sort: sort,
                       queue: try bool(args, "queue") ?? true, at: at)
    }
}
