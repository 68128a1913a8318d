import Foundation
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// `StreamEncoder` with Debian's FFmpeg: a tone at the engine's rate comes out of FFmpeg's own
/// decoder as the same tone, for MP3 and for Ogg Opus from 44.1 kHz (resampled to Opus's 48 kHz,
/// as when the stream follows a device that plays at 44.1 kHz); MP3 units are whole frames and the
/// Ogg stream starts with its header pages, so a listener may join at any unit.
final class StreamEncoderTests: XCTestCase {
    func testEncodedTonesDecodeAsTheSameTone() throws {
        for (format, rate) in [(HTTPStreamAddress.Format.mp3, 48_000), (.opus, 44_100), (.mp3, 44_100)] {
            let encoder = try StreamEncoder(format: format, bitrate: 128, input: PCMFormat(sampleRate: rate, channels: 2))
            var samples = [Float](repeating: 0, count: rate * 2)
            for frame in 0..<rate { samples[2 * frame] = 0.5 * sin(2 * .pi * 660 * Float(frame) / Float(rate)); samples[2 * frame + 1] = samples[2 * frame] }
            var units: [[UInt8]] = []
            for start in stride(from: 0, to: rate, by: 1000) {   // in the output's small pulls
                samples.withUnsafeBufferPointer { encoder.encode($0.baseAddress! + start * 2, frames: min(1000, rate - start)) }
                units += encoder.take()
            }
            encoder.encode(nil, frames: rate / 2)   // and silence after it
            units += encoder.take()
            XCTAssertGreaterThan(units.count, 10, "\(format)")
            if format == .mp3 {
                for unit in units { XCTAssertEqual([unit[0], unit[1] & 0xE0], [0xFF, 0xE0], "each unit starts on an MP3 frame") }
                XCTAssertTrue(encoder.header.isEmpty)
            } else {
                XCTAssertTrue(String(decoding: encoder.header, as: UTF8.self).contains("OpusHead"))
                XCTAssertTrue(String(decoding: encoder.header, as: UTF8.self).contains("OpusTags"))
                for unit in units { XCTAssertEqual(Array(unit.prefix(4)), Array("OggS".utf8), "each unit is whole Ogg pages") }
            }
            // A listener joining after the first half second: the header, then the units from there.
            let joined = encoder.header + units.dropFirst(units.count / 4).flatMap { $0 }
            let decoded = try decode(joined, suffix: format == .mp3 ? "mp3" : "ogg")
            let tone = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: 48_000).dominantTone(in: decoded.prefix(24_000)[...])
            XCTAssertEqual(tone, 660, "\(format) from \(rate) Hz")
        }
    }

    /// FFmpeg's command line decodes `bytes` to mono floats at 48 kHz.
    private func decode(_ bytes: [UInt8], suffix: String) throws -> [Float] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("previewd-encoder-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(suffix)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let ffmpeg = try XCTUnwrap(ProcessRunner.which("ffmpeg"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-loglevel", "error", "-i", file.path, "-ac", "1", "-ar", "48000", "-f", "f32le", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
