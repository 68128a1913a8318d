import PreviewCore
import XCTest

/// The HTTP stream output's pure parts: its address and settings, ICY blocks, request heads and the
/// Host rule.
final class HTTPStreamTests: XCTestCase {
    func testTheAddressNamesHostPortPathAndFormat() throws {
        let mp3 = try HTTPStreamAddress(parsing: "http://127.0.0.1:8000/previewd.mp3")
        XCTAssertEqual([mp3.host, String(mp3.port), mp3.path], ["127.0.0.1", "8000", "/previewd.mp3"])
        XCTAssertEqual(mp3.format, .mp3)
        XCTAssertEqual(try HTTPStreamAddress(parsing: "http://[::1]:9000/a/b.OGG").format, .opus)
        XCTAssertEqual(try HTTPStreamAddress(parsing: "http://[::1]:9000/a/b.OGG").description, "http://[::1]:9000/a/b.OGG")
        XCTAssertEqual(try HTTPStreamAddress(parsing: "http://box.local/s.opus").port, 8000)
        let refusals: [(String, String)] = [
            ("http://127.0.0.1:8000/previewd.wav", "the path must end in .mp3"),
            ("http://127.0.0.1:8000", "needs a path naming its format"),
            ("http://127.0.0.1:99999/a.mp3", "the port must be 1–65535"),
            ("http://127.0.0.1:8000/a b.mp3", "the path may hold"),
            ("http://127.0.0.1:8000/../a.mp3", "the path may hold"),
            ("http://[::1/a.mp3", "http: unclosed ["),
        ]
        for (text, reason) in refusals {
            XCTAssertThrowsError(try HTTPStreamAddress(parsing: text), text) { XCTAssertTrue("\($0)".contains(reason), "\(text): \($0)") }
        }
    }

    func testSettingsAreCheckedPerFormat() throws {
        let defaults = try HTTPStreamSettings([:], format: .mp3)
        XCTAssertEqual([defaults.bitrate, defaults.listeners], [128, 16])
        XCTAssertEqual(defaults.name, "previewd")
        XCTAssertNil(defaults.secret)
        XCTAssertEqual(try HTTPStreamSettings(["bitrate": "96"], format: .opus).bitrate, 96)
        XCTAssertEqual(try HTTPStreamSettings(["bitrate": "320", "listeners": "4", "name": "Kitchen"], format: .mp3).listeners, 4)
        let refusals: [([String: String], HTTPStreamAddress.Format, String)] = [
            (["bitrate": "100"], .mp3, "bitrate must be one of 32, 40"),
            (["bitrate": "600"], .opus, "6–510"),
            (["bitrate": "fast"], .mp3, "bitrate must be"),
            (["listeners": "0"], .mp3, "listeners must be 1–256"),
            (["secret": "short"], .mp3, "secret must be 16–128"),
            (["secret": "has/a/slash-and-is-long"], .mp3, "secret must be"),
            (["name": ""], .mp3, "name must be"),
            (["colour": "red"], .mp3, "unknown setting colour (an http output takes bitrate, listeners, name, secret)"),
        ]
        for (settings, format, reason) in refusals {
            XCTAssertThrowsError(try HTTPStreamSettings(settings, format: format), "\(settings)") {
                XCTAssertTrue("\($0)".contains(reason), "\(settings): \($0)")
            }
        }
    }

    func testIcyBlocksAreEscapedPaddedAndBounded() {
        let block = IcyMetadata.block(title: "Artist - Title")
        XCTAssertEqual(Int(block[0]) * 16 + 1, block.count)
        XCTAssertEqual(String(decoding: block.dropFirst().prefix { $0 != 0 }, as: UTF8.self), "StreamTitle='Artist - Title';")
        let hostile = IcyMetadata.block(title: "It's; a\u{0}\n\u{1b}[31mtest")
        XCTAssertEqual(String(decoding: hostile.dropFirst().prefix { $0 != 0 }, as: UTF8.self), "StreamTitle='It\u{2019}s, a[31mtest';")
        let long = IcyMetadata.block(title: String(repeating: "é", count: 5_000))
        XCTAssertEqual(long.count, 1 + IcyMetadata.maxBlockBytes)
        let text = String(decoding: long.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("é';"), "cut on a character, the field closed")
        XCTAssertFalse(text.contains("\u{FFFD}"))
        XCTAssertEqual(IcyMetadata.block(title: ""), [1] + Array("StreamTitle='';".utf8) + [0])
        XCTAssertEqual(IcyMetadata.streamTitle(title: "T", artist: "A"), "A - T")
        XCTAssertEqual(IcyMetadata.streamTitle(title: "T", artist: nil), "T")
        XCTAssertEqual(IcyMetadata.streamTitle(title: nil, artist: ""), "")
    }

    func testRequestHeadsAreReadWhenWholeAndBounded() {
        let request = Array("GET /previewd.mp3?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nicy-metadata:  1 \r\n\r\n".utf8)
        XCTAssertEqual(StreamRequestHead.parse(Array(request.dropLast(2))), .incomplete)
        XCTAssertEqual(StreamRequestHead.parse(request),
                       .head(StreamRequestHead(method: "GET", path: "/previewd.mp3", host: "127.0.0.1:8000", wantsMetadata: true)))
        XCTAssertEqual(StreamRequestHead.parse(Array("HEAD / HTTP/1.0\n\n".utf8)),
                       .head(StreamRequestHead(method: "HEAD", path: "/", host: nil, wantsMetadata: false)))
        XCTAssertEqual(StreamRequestHead.parse(Array("POST / HTTP/1.1\r\n\r\n".utf8)), .refused(status: 405, why: "method POST"))
        XCTAssertEqual(StreamRequestHead.parse(Array("hello\r\n\r\n".utf8)), .refused(status: 400, why: "not an HTTP/1 request"))
        XCTAssertEqual(StreamRequestHead.parse(Array("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".utf8)), .refused(status: 400, why: "two Host headers"))
        let endless = Array("GET / HTTP/1.1\r\nX: ".utf8) + [UInt8](repeating: 65, count: StreamRequestHead.maxBytes)
        XCTAssertEqual(StreamRequestHead.parse(endless), .refused(status: 431, why: "request head too long"))
    }

    func testTheHostMustBeThisMachineOrAnAddress() {
        let loopback = StreamHostPolicy(host: "127.0.0.1", port: 8000, loopback: true, hostName: "box")
        for allowed in ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "box:8000", "box.local:8000", "[::1]:8000", "192.168.1.5:8000"] {
            XCTAssertTrue(loopback.allows(host: allowed), allowed)
        }
        for refused in ["attacker.example:8000", "127.0.0.1:8001", "127.0.0.1", "localhost", "", "[::1", "box:x", "1.2.3.4.5:8000"] {
            XCTAssertFalse(loopback.allows(host: refused), refused)
        }
        let web = StreamHostPolicy(host: "0.0.0.0", port: 80, loopback: false, hostName: "box.lan")
        XCTAssertTrue(web.allows(host: "box.lan"))
        XCTAssertFalse(web.allows(host: "box.lan.local"))
        XCTAssertFalse(web.allows(host: "localhost"))
    }
}
