import PreviewCore
@testable import PreviewEngine
import XCTest

/// `--output VALUE[,key=value]...`: the split, each entry's keys, the names, and today's single
/// options going to the first output of their kind.
final class OutputSettingsTests: XCTestCase {
    func testTheSplitKeepsTheValueWholeAndTakesTheSettings() throws {
        XCTAssertTrue(try OutputOptions.split("pulse") == ("pulse", [:]))
        XCTAssertTrue(try OutputOptions.split("pulse,sink=foo,name=Speakers") == ("pulse", ["sink": "foo", "name": "Speakers"]))
        XCTAssertTrue(try OutputOptions.split("http://127.0.0.1:8000/previewd.mp3,bitrate=128")
                      == ("http://127.0.0.1:8000/previewd.mp3", ["bitrate": "128"]))
        XCTAssertTrue(try OutputOptions.split("alsa:hw:1,0") == ("alsa:hw:1,0", [:]), "ALSA's commas stay in the device")
        XCTAssertTrue(try OutputOptions.split("alsa:plughw:CARD=x,DEV=0,mixer=PCM") == ("alsa:plughw:CARD=x,DEV=0", ["mixer": "PCM"]))
        XCTAssertTrue(try OutputOptions.split("pulse,name=A=B") == ("pulse", ["name": "A=B"]))
    }

    func testTheSplitRefusesWhatIsAmbiguous() {
        let cases = [
            ("pulse,sink=a,sink=b", "--output pulse,sink=a,sink=b: sink is given twice"),
            ("pulse,sink=", "--output pulse,sink=: sink= needs a value"),
            ("pulse,name=x,oops", "--output pulse,name=x,oops: \"oops\" is not key=value (options come after the output, as in pulse,sink=NAME,name=Speakers)"),
            (",name=x", "--output needs an output before its options (got ,name=x)"),
        ]
        for (argument, message) in cases {
            XCTAssertThrowsError(try OutputOptions.split(argument), argument) { XCTAssertEqual("\($0)", message) }
        }
    }

    private func problem(_ arguments: [String], sink: String? = nil, alsaMixer: String? = nil) -> String? {
        do {
            return OutputRegistry.problem(with: try OutputRegistry.outputs(arguments, base: OutputOptions(sink: sink, alsaMixer: alsaMixer)))
        } catch { return "\(error)" }
    }

    func testEachEntryRefusesAKeyItDoesNotTake() {
        XCTAssertNil(problem(["pulse,sink=null,server=unix:/x,name=Speakers"]))
        XCTAssertNil(problem(["pipe:/tmp/fifo,name=Pipe"]))
        XCTAssertNil(problem(["alsa:hw:1,0,mixer=PCM,format=44100:16:2"]))
        XCTAssertEqual(problem(["pulse,device=x"]), "--output pulse: unknown option device= (it takes name=, server=, sink=)")
        XCTAssertEqual(problem(["pipe:/tmp/fifo,sink=x"]), "--output pipe:/tmp/fifo: unknown option sink= (it takes name=)")
        XCTAssertEqual(problem(["snapcast://127.0.0.1:4953,bitrate=128"]), "--output snapcast://127.0.0.1:4953: unknown option bitrate= (it takes name=)")
        XCTAssertEqual(problem(["alsa,sink=x"]), "--output alsa: unknown option sink= (it takes format=, mixer=, name=)")
        XCTAssertEqual(problem(["alsa,format=44100"]),
                       "--alsa-format must be RATE:BITS:CHANNELS, each a number or *, BITS 16, 24, 32 or f (got 44100)")
    }

    func testNamesAreTheValuesUnlessGivenAndMustDiffer() throws {
        let list = try OutputRegistry.outputs(["pulse,name=Speakers", "pipe:/tmp/fifo"], base: OutputOptions())
        XCTAssertEqual(list.map(\.name), ["Speakers", "pipe:/tmp/fifo"])
        XCTAssertEqual(problem(["pulse", "pulse,sink=other"]), "two outputs are named pulse: give each its own with ,name=NAME")
        XCTAssertNil(problem(["pulse", "pulse,sink=other,name=Other"]))
    }

    /// `--sink` and the ALSA options go to the first output of their kind; with none of that kind,
    /// to the first output, which refuses them as before.
    func testTodaysSingleOptionsGoToTheFirstOfTheirKind() throws {
        let list = try OutputRegistry.outputs(["pipe:/tmp/fifo", "pulse,name=A", "pulse,name=B"], base: OutputOptions(sink: "null"))
        XCTAssertEqual(list.map(\.sink), [nil, "null", nil])
        XCTAssertEqual(try OutputRegistry.outputs([], base: OutputOptions(sink: "null")).map(\.output), ["pulse"], "no --output: pulse")
        XCTAssertEqual(problem(["pipe:/tmp/fifo"], sink: "null"), "--sink and --pulse-server apply to --output pulse only")
        XCTAssertEqual(problem(["pulse", "alsa"], alsaMixer: "PCM"), nil)
        XCTAssertEqual(problem(["pulse"], alsaMixer: "PCM"), "--alsa-mixer and --alsa-format apply to --output alsa only")
    }

    func testEveryEntryNamesItsMPDPlugin() {
        XCTAssertEqual(OutputRegistry.entries.map(\.mpdPlugin), ["pulse", "alsa", "snapcast", "fifo", "httpd"])
        XCTAssertEqual(OutputRegistry.entries.map(\.playsToDevice), [true, true, false, false, false])
    }

    func testTheHTTPEntryJudgesItsSettings() {
        XCTAssertNil(problem(["http://127.0.0.1:8000/previewd.mp3"]))
        XCTAssertNil(problem(["http://127.0.0.1:8000/previewd.ogg,bitrate=64,listeners=2,name=Box"]))
        XCTAssertEqual(problem(["http://127.0.0.1:8000/previewd.mp3,bitrate=100"]),
                       "http: bitrate must be one of 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 kbit/s for MP3 (got 100)")
        XCTAssertEqual(problem(["pulse,bitrate=128"]), "--output pulse: unknown option bitrate= (it takes name=, server=, sink=)")
        XCTAssertEqual(problem(["http://127.0.0.1:8000/a.mp3"], sink: "null"), "--sink and --pulse-server apply to --output pulse only")
    }
}
