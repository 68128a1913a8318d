import Foundation

/// How long a test waits for the machine: every timeout given to `eventually` and `settled` (and the
/// waits built on them) is multiplied by `PREVIEWD_TEST_PATIENCE` (1 by default; 3 gives a slow or
/// loaded machine three times as long), so no test needs editing to run on a slower machine. A wait
/// that succeeds returns as soon as it does: patience costs nothing on a fast machine.
public enum Patience {
    /// The factor every timeout is multiplied by.
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["PREVIEWD_TEST_PATIENCE"], let value = Double(text), value > 0 else { return 1 }
        return value
    }()

    /// `seconds` as this machine's patience makes it.
    public static func seconds(_ seconds: TimeInterval) -> TimeInterval { seconds * scale }
}

/// The one way a test waits for something it cannot be told about: asks `condition` again, every
/// `interval`, until it gives a value or `timeout` seconds (times the patience) have passed; returns
/// the value, or nil when it never came. What a test can be told (a line a program prints, an event)
/// is waited for through its own signal instead.
public func eventually<T>(timeout: TimeInterval = 10, interval: TimeInterval = 0.02,
                          _ condition: () throws -> T?) rethrows -> T? {
    let deadline = Date(timeIntervalSinceNow: Patience.seconds(timeout))
    while true {
        if let value = try condition() { return value }
        guard Date() < deadline else { return nil }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// `eventually` for a condition that is true or not: whether it became true in time.
@discardableResult
public func eventually(timeout: TimeInterval = 10, interval: TimeInterval = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    try eventually(timeout: timeout, interval: interval) { try condition() ? true : nil } ?? false
}

/// `eventually` for a condition that must be asked with `await` (a front-end's command): the same
/// timeout, interval and patience, sleeping with `Task.sleep` so that no thread of the pool is held
/// meanwhile, on the caller's actor if it has one. (A name of its own: an `async` overload of
/// `eventually` would be chosen for every call in an `async` test, and each would need an `await`.)
public func eventuallyAsync<T>(timeout: TimeInterval = 10, interval: TimeInterval = 0.02,
                               isolation: isolated (any Actor)? = #isolation,
                               _ condition: () async throws -> T?) async rethrows -> T? {
    let deadline = Date(timeIntervalSinceNow: Patience.seconds(timeout))
    while true {
        if let value = try await condition() { return value }
        guard Date() < deadline else { return nil }
        try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
    }
}

/// `eventuallyAsync` for a condition that is true or not: whether it became true in time.
@discardableResult
public func eventuallyAsync(timeout: TimeInterval = 10, interval: TimeInterval = 0.02,
                            isolation: isolated (any Actor)? = #isolation,
                            _ condition: () async throws -> Bool) async rethrows -> Bool {
    try await eventuallyAsync(timeout: timeout, interval: interval, isolation: isolation) { try await condition() ? true : nil } ?? false
}

/// Waits until `value` has not changed for `quiet` seconds ("nothing more arrives"), at most
/// `timeout` seconds (times the patience); returns the value it settled on, or nil when it kept
/// changing. `quiet` is not scaled: it is the property checked, not patience.
public func settled<T: Equatable>(quiet: TimeInterval, timeout: TimeInterval = 10, interval: TimeInterval = 0.02,
                                  _ value: () throws -> T) rethrows -> T? {
    var last = try value()
    var since = Date()
    let deadline = Date(timeIntervalSinceNow: Patience.seconds(timeout) + quiet)
    while Date() < deadline {
        Thread.sleep(forTimeInterval: interval)
        let now = try value()
        if now != last {
            last = now
            since = Date()
        } else if Date().timeIntervalSince(since) >= quiet {
            return now
        }
    }
    return nil
}
