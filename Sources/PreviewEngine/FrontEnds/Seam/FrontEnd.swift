/// A way in to the engine from outside (Mopidy's frontends, MPD's clients): the control socket,
/// MPRIS, the `--on-event` hook. It is given an `EngineHandle` (commands in, typed results and
/// errors out, the events, the loop, the log) and never the player itself; `Engine` starts the
/// front-ends after the player, in the order they were added, and stops them in reverse.
public protocol FrontEnd: AnyObject, Sendable {
    /// Starts serving: called once, from the thread that builds the engine (before or after the
    /// loop runs), so what touches the hub or the loop goes through `loop.execute`. Throws when
    /// previewd cannot serve as asked (it then exits).
    func start() throws(FrontEndError)

    /// Takes no more commands and hears no more events, at once: called on the loop at shutdown,
    /// before the player stops.
    func stop()

    /// Returns once what the front-end had in flight is over (answers written): called on the
    /// loop after the player stopped, so commands still running have ended quickly.
    func finish() async
}

extension FrontEnd {
    /// Nothing in flight to wait for.
    public func finish() async {}
}
