#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The pairing token: 32 random bytes as base64url in `DIR/web-token` (0600, folder 0700). The
/// server reads it again whenever the file changes, so `--pair --revoke` locks out the old cookie
/// at once, with no timer and no restart.
final class TokenStore: Sendable {
    /// The token file's path.
    let path: String
    /// The folder holding it.
    let directory: String

    private struct Cache {
        var stamp: [Int] = []
        var token: String?
    }
    private let cache = Mutex(Cache())

    init(directory: String) {
        self.directory = directory
        path = directory + "/web-token"
    }

    /// `$XDG_CONFIG_HOME/previewd`, else `$HOME/.config/previewd`.
    static func defaultDirectory() -> String {
        if let xdg = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") { return xdg + "/previewd" }
        let home = getenv("HOME").map { String(cString: $0) } ?? "/"
        return home + "/.config/previewd"
    }

    /// The token now in the file, or nil when there is none (or it cannot be read).
    func current() -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            cache.withLock { $0 = Cache() }
            return nil
        }
        let stamp = [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        if let hit = cache.withLock({ $0.stamp == stamp ? $0.token : nil }) { return hit }
        let token = Self.readToken(path)
        cache.withLock { $0 = Cache(stamp: stamp, token: token) }
        return token
    }

    /// Whether `candidate` is the current token, compared in constant time.
    func matches(_ candidate: String) -> Bool {
        guard let token = current() else { return false }
        return Self.sameInConstantTime(token, candidate)
    }

    /// Whether `a` and `b` are the same text, in a time that does not tell where they differ.
    static func sameInConstantTime(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// Makes a new token and writes it (replacing any old one), returning it.
    func create() throws(PairingError) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var rng = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = rng.next() }
        let token = Base64URL.encode(bytes)
        try writePrivate(token + "\n", to: path)
        return token
    }

    /// Writes `text` to `target` in the token's folder (made when missing), 0600, replacing what was
    /// there in one step.
    func writePrivate(_ text: String, to target: String) throws(PairingError) {
        try makeFolder()
        // A name of its own (0600, made exclusively): two `--pair --revoke` at once cannot swap files.
        var template = Array((target + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let temporary = String(cString: template)
        guard fd >= 0 else { throw .io("cannot write \(temporary)", errno) }
        let line = Array(text.utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == line.count, synced, rename(temporary, target) == 0 else {
            unlink(temporary)
            throw .io("cannot write \(target)", errno)
        }
    }

    /// The folder, made 0700 with its parents when missing. One that exists keeps its mode (it may
    /// be any folder the user named), but one others may write into is refused: they could put a
    /// token of their own there.
    private func makeFolder() throws(PairingError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw .io("cannot make \(prefix)", errno) }
        }
        var info = stat()
        guard stat(directory, &info) == 0 else { throw .io("cannot read \(directory)", errno) }
        guard info.st_uid == getuid(), info.st_mode & 0o022 == 0 else {
            throw .io("\(directory) is not this user's alone (others may write into it)", EPERM)
        }
    }

    private static func readToken(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = Glibc.read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespace
        return text.count >= 16 ? text : nil  // a truncated or empty file pairs nobody
    }
}

/// Why pairing could not be set up.
enum PairingError: Error, CustomStringConvertible {
    case io(String, Int32)

    var description: String {
        switch self {
        case .io(let what, let code): "\(what): \(String(cString: strerror(code)))"
        }
    }
}

extension String {
    /// The text without spaces and line ends around it.
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
