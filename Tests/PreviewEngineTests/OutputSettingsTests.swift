import PreviewCore
@testable import PreviewEngine
import XCTest

/// `--output VALUE[,key=value]...`: the value and its settings apart, ALSA's commas kept, and the
/// http output's settings judged by its registry entry.
final class OutputSettingsTests: XCTestCase {
    func testSplitKeepsTheValueWholeAndReadsTheSettings() throws {
        XCTAssertEqual(try OutputOptions.split("pulse").output, "pulse")
        let stream = try OutputOptions.split("http://127.0.0.1:8000/previewd.mp3,bitrate=128,name=Kitchen radio")
        XCTAssertEqual(stream.output, "http://127.0.0.1:8000/previewd.mp3")
        XCTAssertEqual(stream.settings, ["bitrate": "128", "name": "Kitchen radio"])
        XCTAssertEqual(try OutputOptions.split("alsa:hw:1,0").output, "alsa:hw:1,0")
        XCTAssertEqual(try OutputOptions.split("alsa:plughw:CARD=PCH,DEV=0").settings, [:])
        let alsa = try OutputOptions.split("alsa:hw:1,0,mixer=PCM")
        XCTAssertEqual(alsa.output, "alsa:hw:1,0")
        XCTAssertEqual(alsa.settings, ["mixer": "PCM"])
        XCTAssertEqual(try OutputOptions.split("http://h/a.mp3,secret=a=b").settings, ["secret": "a=b"])
        for bad in [",bitrate=1", "http://h/a.mp3,bitrate=1,bitrate=2", "http://h/a.mp3,bitrate=1,oops", "http://h/a.mp3,bitrate=1,"] {
            XCTAssertThrowsError(try OutputOptions.split(bad), bad)
        }
    }

    func testTheHTTPEntryJudgesItsSettings() {
        func problem(_ argument: String) -> String? {
            do {
                let (output, settings) = try OutputOptions.split(argument)
                return OutputRegistry.problem(with: OutputOptions(output: output, settings: settings))
            } catch { return error.description }
        }
        XCTAssertNil(problem("http://127.0.0.1:8000/previewd.mp3"))
        XCTAssertNil(problem("http://127.0.0.1:8000/previewd.ogg,bitrate=64,listeners=2,name=Box"))
        XCTAssertEqual(problem("http://127.0.0.1:8000/previewd.mp3,bitrate=100"),
                       "http: bitrate must be one of 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 kbit/s for MP3 (got 100)")
        XCTAssertEqual(problem("pulse,bitrate=128"), "--output pulse takes no setting bitrate")
        XCTAssertEqual(problem("pipe:/tmp/fifo,listeners=2"), "--output pipe:/tmp/fifo takes no setting listeners")
        XCTAssertEqual(OutputRegistry.problem(with: OutputOptions(output: "http://127.0.0.1:8000/a.mp3", sink: "null")),
                       "--sink and --pulse-server apply to --output pulse only")
    }
}
