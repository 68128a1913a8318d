import PreviewCore
@testable import PreviewEngine
import XCTest

/// `--output` values and the options that go with them, as `OutputRegistry`'s entries judge them.
final class OutputRegistryTests: XCTestCase {
    private func problem(_ output: String, sink: String? = nil, latencyMs: Int = 100) -> String? {
        OutputRegistry.problem(with: OutputOptions(output: output, sink: sink, latencyMs: latencyMs))
    }

    func testValuesNoOutputClaimsListEveryOutput() {
        for bad in ["alsa", "", "tcp://127.0.0.1:4953", "Pulse"] {
            XCTAssertEqual(problem(bad), "--output must be pulse, snapcast://HOST:PORT or pipe:PATH (got \(bad))")
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
}
