import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// `--output` values and the options that go with them, as `OutputRegistry`'s entries judge them.
final class OutputRegistryTests: XCTestCase {
    private func problem(_ output: String, sink: String? = nil, latencyMs: Int = 100,
                         alsaMixer: String? = nil, alsaFormat: String? = nil) -> String? {
        OutputRegistry.problem(with: OutputOptions(output: output, sink: sink, latencyMs: latencyMs,
                                                   alsaMixer: alsaMixer, alsaFormat: alsaFormat))
    }

    func testValuesNoOutputClaimsListEveryOutput() {
        for bad in ["alsa2", "", "tcp://127.0.0.1:4953", "Pulse"] {
            XCTAssertEqual(problem(bad), "--output must be pulse, alsa[:DEVICE], snapcast://HOST:PORT, pipe:PATH or http://HOST:PORT/NAME.mp3 (got \(bad))")
        }
    }

    func testEachEntryJudgesItsOwnValueAndOptions() {
        XCTAssertNil(problem("pulse"))
        XCTAssertNil(problem("pulse", sink: "null"))
        XCTAssertNil(problem("snapcast://127.0.0.1:4953"))
        XCTAssertEqual(problem("snapcast://[::1"), "snapcast: unclosed [ in [::1")
        XCTAssertEqual(problem("snapcast://127.0.0.1", sink: "null"), "--sink and --pulse-server apply to --output pulse only")
        XCTAssertEqual(problem("pipe:relative"), "pipe: needs an absolute path, as in pipe:/tmp/snapfifo (got pipe:relative)")
        XCTAssertEqual(problem("pipe:/nonexistent-folder/fifo"), "--output pipe:/nonexistent-folder/fifo: the folder of /nonexistent-folder/fifo does not exist")
        XCTAssertEqual(problem("pulse", latencyMs: 5), "--latency-ms must be 10–2000")
    }

    /// ALSA's value and options are judged without touching a device (that happens at start).
    func testALSAJudgesItsDeviceAndFormat() {
        XCTAssertNil(problem("alsa"))
        XCTAssertNil(problem("alsa:hw:1,0", alsaMixer: "PCM", alsaFormat: "44100:16:2"))
        XCTAssertNil(problem("alsa:nosuchdevice", alsaFormat: "*:24:*"))
        XCTAssertEqual(problem("alsa:"), "alsa: needs a device name, as in alsa:default or alsa:hw:1,0 (got alsa:)")
        XCTAssertEqual(problem("alsa", alsaFormat: "44100:12:2"),
                       "--alsa-format must be RATE:BITS:CHANNELS, each a number or *, BITS 16, 24, 32 or f (got 44100:12:2)")
        XCTAssertEqual(problem("alsa", alsaFormat: "44100"),
                       "--alsa-format must be RATE:BITS:CHANNELS, each a number or *, BITS 16, 24, 32 or f (got 44100)")
        XCTAssertEqual(problem("alsa", sink: "null"), "--sink and --pulse-server apply to --output pulse only")
        XCTAssertEqual(problem("pulse", alsaMixer: "PCM"), "--alsa-mixer and --alsa-format apply to --output alsa only")
        XCTAssertEqual(problem("pipe:/tmp/fifo", alsaFormat: "*:*:*"), "--alsa-mixer and --alsa-format apply to --output alsa only")
        XCTAssertEqual(try ALSADeviceSpec(output: "alsa:x", format: "48000:32:*"),
                       { var spec = try! ALSADeviceSpec(output: "alsa:x"); spec.rate = 48_000; spec.encoding = .s32; return spec }())
    }

    /// A device that does not exist stops previewd at start, with the reason (it could not start).
    func testAnUnknownALSADeviceCannotStart() throws {
        let config = try ALSATestConfig(rawFile: "/dev/null")
        defer { config.remove() }
        XCTAssertThrowsError(try OutputRegistry.makeSequencer(OutputOptions(output: "alsa:previewd_nosuch"))) { error in
            XCTAssertEqual("\(error)", "cannot open ALSA device previewd_nosuch: No such file or directory")
        }
    }
}
