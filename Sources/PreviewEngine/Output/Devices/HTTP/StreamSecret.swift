#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore

/// The stream's secret beyond loopback when none is given: made once, kept in
/// `$XDG_CONFIG_HOME/previewd/stream-secret` (0600, folder 0700; else `~/.config/previewd`) as the
/// web remote keeps its token, so the URL a listener typed into a player stays good across restarts.
enum StreamSecret {
    /// The secret kept, made and written when there is none.
    static func keep(environment: [String: String] = ProcessInfo.processInfo.environment) throws(OutputValueError) -> String {
        let folder: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { folder = xdg + "/previewd" }
        else if let home = environment["HOME"], home.hasPrefix("/") { folder = home + "/.config/previewd" }
        else { throw OutputValueError("http: no secret= given and no HOME to keep one in") }
        let path = folder + "/stream-secret"
        switch AtomicFile.read(path, maxBytes: 256) {
        case .bytes(let bytes):
            let text = String(decoding: bytes.filter { $0 > 0x20 }, as: UTF8.self)
            if HTTPStreamSettings.isUsableSecret(text) { return text }
        case .refused(let why): throw OutputValueError("http: cannot use \(path): \(why)")
        case .missing: break
        }
        if let problem = PrivateFolder.make(folder) { throw OutputValueError("http: \(problem)") }
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<24).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16).leftPadded }.joined()
        if let code = AtomicFile.write(Array((secret + "\n").utf8), to: path, durable: true) {
            throw OutputValueError("http: cannot write \(path): \(String(cString: strerror(code)))")
        }
        return secret
    }
}

private extension String {
    var leftPadded: String { count == 1 ? "0" + self : self }
}
