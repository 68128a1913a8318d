/// Answers as the server writes them: the result is encoded straight from its own type into the
/// line (clients read the same line as a `ControlResponse`).
public enum ControlReply {
    /// `{"id": …, "ok": true, "result": …}` as one line.
    public static func success(id: Int?, _ result: some Encodable) -> [UInt8] {
        JSONLine.encode(Wire(id: id, ok: true, result: result, error: nil))
            ?? failure(id: id, ControlError(.internal, "could not encode the answer"))
    }

    /// `{"id": …, "ok": false, "error": {"code": …, "message": …}}` as one line.
    public static func failure(id: Int?, _ error: ControlError) -> [UInt8] {
        JSONLine.encode(Wire<Bool>(id: id, ok: false, result: nil, error: error))
            ?? Array(#"{"ok":false,"error":{"code":"internal","message":"could not encode the answer"}}\#n"#.utf8)
    }

    private struct Wire<Result: Encodable>: Encodable {
        var id: Int?
        var ok: Bool
        var result: Result?
        var error: ControlError?
    }
}
