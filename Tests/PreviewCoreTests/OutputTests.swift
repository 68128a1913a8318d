import PreviewCore
import XCTest

/// `--output` values, the pacing of stream outputs, and software volume.
final class OutputTests: XCTestCase {
    func testOutputValuesParse() throws {
        XCTAssertEqual(try SnapcastAddress(parsing: "snapcast://127.0.0.1:4953"), SnapcastAddress(host: "127.0.0.1", port: 4953))
        XCTAssertEqual(try SnapcastAddress(parsing: "snapcast://snap-server.local"), SnapcastAddress(host: "snap-server.local", port: 4953))
        XCTAssertEqual(try SnapcastAddress(parsing: "snapcast://[::1]:5000/"), SnapcastAddress(host: "::1", port: 5000))
        XCTAssertEqual(try PipePath(parsing: "pipe:/tmp/snapfifo"), PipePath(path: "/tmp/snapfifo"))
        XCTAssertEqual(try PipePath(parsing: "pipe:///tmp/snapfifo"), PipePath(path: "/tmp/snapfifo"))
        XCTAssertEqual(SnapcastAddress(host: "::1", port: 5000).description, "snapcast://[::1]:5000")
        XCTAssertEqual(PipePath(path: "/tmp/f").description, "pipe:/tmp/f")
    }

    /// Values that no output claims are refused by `OutputRegistry` (PreviewEngineTests).
    func testBadOutputsSayWhatIsExpected() {
        for bad in ["snapcast://", "snapcast://host:0", "snapcast://host:65536", "snapcast://host:12ab",
                    "snapcast://user@host:1", "snapcast://host:1/path", "snapcast://[::1", "snapcast://[zz]:1"] {
            XCTAssertThrowsError(try SnapcastAddress(parsing: bad), bad) { error in
                XCTAssertFalse("\(error)".isEmpty)
            }
        }
        for bad in ["pipe:", "pipe:relative/fifo"] {
            XCTAssertThrowsError(try PipePath(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".contains("needs an absolute path"))
            }
        }
    }

    func testOnlyUnspecifiedMulticastAndBroadcastAreRefusedForASnapserver() {
        XCTAssertNil(AddressPolicy.notUnicastReason([127, 0, 0, 1]))
        XCTAssertNil(AddressPolicy.notUnicastReason([192, 168, 1, 20]))
        XCTAssertNil(AddressPolicy.notUnicastReason([93, 184, 216, 34]))
        XCTAssertNil(AddressPolicy.notUnicastReason([UInt8](repeating: 0, count: 15) + [1]))
        XCTAssertNotNil(AddressPolicy.notUnicastReason([0, 0, 0, 0]))
        XCTAssertNotNil(AddressPolicy.notUnicastReason([239, 255, 255, 250]))
        XCTAssertNotNil(AddressPolicy.notUnicastReason([255, 255, 255, 255]))
        XCTAssertNotNil(AddressPolicy.notUnicastReason([UInt8](repeating: 0, count: 16)))
        XCTAssertNotNil(AddressPolicy.notUnicastReason([0xff, 0x02] + [UInt8](repeating: 0, count: 13) + [1]))
    }

    func testPacingKeepsTheStreamBetweenItsMarksAndNeverBursts() {
        var clock = PacingClock(sampleRate: 48_000, lowWaterMs: 25, highWaterMs: 75)
        let start: UInt64 = 1_000_000_000
        // A new run: topped up to 75 ms ahead.
        XCTAssertEqual(clock.framesWanted(at: start), 3_600)
        clock.didSend(3_600)
        XCTAssertEqual(clock.ahead(at: start), 3_600)
        // Above the low mark: nothing yet; the next top-up is when 25 ms are left (50 ms on).
        XCTAssertEqual(clock.framesWanted(at: start + 10_000_000), 0)
        XCTAssertEqual(clock.nextTopUp, start + 50_000_000)
        // At the low mark: back up to 75 ms ahead.
        XCTAssertEqual(clock.framesWanted(at: start + 50_000_000), 2_400)
        clock.didSend(2_400)
        XCTAssertEqual(clock.ahead(at: start + 50_000_000), 3_600)
        // Paused for a second: a new run, not a second's worth at once.
        XCTAssertEqual(clock.ahead(at: start + 1_050_000_000), 0)
        XCTAssertEqual(clock.framesWanted(at: start + 1_050_000_000), 3_600)
    }

    func testSoftwareVolumeIsPulseAudiosCubicScale() {
        XCTAssertEqual(SoftwareVolume.gain(percent: 100, muted: false), 1)
        XCTAssertEqual(SoftwareVolume.gain(percent: 50, muted: false), 0.125, accuracy: 1e-6)
        XCTAssertEqual(SoftwareVolume.gain(percent: 150, muted: false), 1)
        XCTAssertEqual(SoftwareVolume.gain(percent: 100, muted: true), 0)
    }

    func testS16EncodingIsFFmpegsRoundsClipsAndRampsTheGain() {
        let source: [Float] = [0.5, -0.5, 1.5, -1.5, 0.25, 0.25, 1, 1]
        var out = [Int16](repeating: 0, count: 8)
        SampleEncoding.s16.encode(source, frames: 4, channels: 2, into: &out, from: 1, to: 1)
        XCTAssertEqual(out, [16_384, -16_384, 32_767, -32_768, 8_192, 8_192, 32_767, 32_767])
        // Half-way values round to even, as lrintf in swresample does.
        SampleEncoding.s16.encode([Float(2.5 / 32_768), Float(3.5 / 32_768)], frames: 1, channels: 2, into: &out, from: 1, to: 1)
        XCTAssertEqual(Array(out.prefix(2)), [2, 4])
        // A ramp from 1 to 0 over 4 frames: 1, 0.75, 0.5, 0.25 (the target is reached by the next chunk).
        SampleEncoding.s16.encode([Float](repeating: 1, count: 8), frames: 4, channels: 2, into: &out, from: 1, to: 0)
        XCTAssertEqual(out, [32_767, 32_767, 24_576, 24_576, 16_384, 16_384, 8_192, 8_192])
    }

    func testWiderEncodingsScaleByTheirOwnFullScale() {
        let source: [Float] = [0.5, -1, 1, -0.25]
        var s32 = [Int32](repeating: 0, count: 4)
        SampleEncoding.s32.encode(source, frames: 2, channels: 2, into: &s32, from: 1, to: 1)
        XCTAssertEqual(s32, [1 << 30, Int32.min, Int32.max, -(1 << 29)])
        var s24 = [UInt8](repeating: 0, count: 12)
        SampleEncoding.s24in3.encode(source, frames: 2, channels: 2, into: &s24, from: 1, to: 1)
        XCTAssertEqual(s24, [0x00, 0x00, 0x40, 0x00, 0x00, 0x80, 0xFF, 0xFF, 0x7F, 0x00, 0x00, 0xE0])
        var float = [Float](repeating: 0, count: 4)
        SampleEncoding.float32.encode(source, frames: 2, channels: 2, into: &float, from: 0.5, to: 0.5)
        XCTAssertEqual(float, [0.25, -0.5, 0.5, -0.125])
        XCTAssertEqual(SampleEncoding.allCases.map(\.bytesPerSample), [2, 3, 4, 4])
    }
}
