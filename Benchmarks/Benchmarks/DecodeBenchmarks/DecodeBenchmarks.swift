import Benchmark
import Foundation
import PreviewCore
import PreviewEngine

/// The 30-second clip the decode benchmarks use (made by scripts/bench with ffmpeg: 44.1 kHz stereo
/// AAC at 256 kbps, the shape of an iTunes preview). Override with PREVIEWD_BENCH_CLIP.
let clipPath = ProcessInfo.processInfo.environment["PREVIEWD_BENCH_CLIP"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build-fixtures/clip-30s-256k.m4a").path

/// The clip's bytes as a complete download.
func clipBytes() -> PreviewBytes {
    guard let data = FileManager.default.contents(atPath: clipPath) else {
        fatalError("missing \(clipPath): run scripts/bench, which makes it")
    }
    let bytes = PreviewBytes()
    bytes.expect(length: data.count)
    bytes.append(data)
    bytes.finish()
    return bytes
}

let benchmarks: @Sendable () -> Void = {
    // Thresholds live in Benchmarks/Thresholds (scripts/bench update); a check fails past them.
    // Names have no spaces: the threshold files are found by name.
    // Tolerances: time on a shared 2-core machine varies by tens of percent run to run, so only a
    // doubling of p90 fails; allocation counts are exact, so 2 %.
    let tolerances: [BenchmarkMetric: BenchmarkThresholds] = [
        .wallClock: .init(relative: [.p90: 100]),
        .mallocCountTotal: .init(relative: [.p90: 2], absolute: [.p90: 2]),
        .throughput: .init(relative: [.p90: 100]),
    ]
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(5),
                                           maxIterations: 1_000, thresholds: tolerances)

    // Bytes in memory → first PCM frame out: demuxer open (header only), decoder and resampler set-up,
    // first packet decoded and converted.
    Benchmark("DecodeLatency",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], thresholds: tolerances)) { benchmark in
        let bytes = clipBytes()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let pipeline = try DecodePipeline(source: bytes, format: .preferred)
            blackHole(try pipeline.next())
        }
    }

    // The whole 30 s clip decoded and resampled to 48 kHz float stereo: 30 s / wall time = × realtime.
    Benchmark("DecodeThroughput30s",
              configuration: .init(metrics: [.wallClock], maxIterations: 50, thresholds: tolerances)) { benchmark in
        let bytes = clipBytes()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let pipeline = try DecodePipeline(source: bytes, format: .preferred)
            while let chunk = try pipeline.next() { blackHole(chunk.frames) }
        }
    }

    // Loudness of the whole 30 s clip (decode + libebur128's integrated loudness and 4× true peak),
    // as every preview is measured once its download is complete: beside DecodeThroughput30s it
    // is the measurement's own cost.
    Benchmark("LoudnessWhole30s",
              configuration: .init(metrics: [.wallClock], maxIterations: 30, thresholds: tolerances)) { benchmark in
        let bytes = clipBytes()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try LoudnessScan.whole(bytes, format: .preferred, cancellation: CancellationFlag()))
        }
    }

    // A cold start's estimate: the first second decoded and measured (sample peak), on a decoder
    // thread while the output gets ready; the track's first frame waits for it.
    Benchmark("LoudnessEstimate",
              configuration: .init(metrics: [.wallClock], maxIterations: 200, thresholds: tolerances)) { benchmark in
        let bytes = clipBytes()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(LoudnessScan.estimate(bytes, format: .preferred))
        }
    }

    // Steady state: allocations while decoding chunks 100..<1100 of the clip, after warm-up.
    Benchmark("DecodeSteadyStateMallocs1000Chunks",
              configuration: .init(metrics: [.mallocCountTotal], maxIterations: 20, thresholds: tolerances)) { benchmark in
        let bytes = clipBytes()
        for _ in benchmark.scaledIterations {
            let pipeline = try DecodePipeline(source: bytes, format: .preferred)
            for _ in 0..<100 { blackHole(try pipeline.next()?.frames) }
            benchmark.startMeasurement()
            var frames = 0
            for _ in 0..<1000 { frames += try pipeline.next()?.frames ?? 0 }
            benchmark.stopMeasurement()
            blackHole(frames)
        }
    }

    // Shows that measuring itself allocates nothing, so the counts above are the code's.
    Benchmark("MeasurementBaseline", configuration: .init(metrics: [.mallocCountTotal], maxIterations: 20, thresholds: tolerances)) { benchmark in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            benchmark.stopMeasurement()
        }
    }

    // PCM ring: one producer thread, one consumer, 48 kHz stereo float, 10 s of audio per iteration.
    Benchmark("PCMRing10s",
              configuration: .init(metrics: [.wallClock, .throughput], maxIterations: 200, thresholds: tolerances)) { benchmark in
        let frames = 480_000
        let chunk = [Float](repeating: 0.5, count: 2 * 1024)
        var out = [Float](repeating: 0, count: 2 * 1024)
        for _ in benchmark.scaledIterations {
            let ring = PCMRing(capacityFrames: 48_000)
            let producer = Thread {
                var written = 0
                while written < frames {
                    _ = chunk.withUnsafeBufferPointer { ring.write($0.baseAddress!, frames: 1024) }
                    written += 1024
                }
                ring.finish()
            }
            producer.start()
            var read = 0
            while !ring.isDrained {
                let n = out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: 1024) }
                read += n
            }
            blackHole(read)
        }
    }

    // The transport state machine: a burst of 1000 inputs over a 50-track queue.
    Benchmark("Transport1000Inputs",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], thresholds: tolerances)) { benchmark in
        let queue = PlayQueue(tracks: (0..<50).map { Track(trackId: $0, previewUrl: "https://example.com/\($0).m4a") })
        for _ in benchmark.scaledIterations {
            var transport = Transport()
            _ = try transport.handle(.queueReplaced(start: 0), queue: queue)
            for i in 0..<250 {
                if let r = transport.currentRequest { _ = try transport.handle(.trackReady(r), queue: queue) }
                _ = try transport.handle(i % 2 == 0 ? .next : .prev, queue: queue)
                _ = try transport.handle(.pause, queue: queue)
                _ = try transport.handle(.toggle, queue: queue)
            }
            blackHole(transport.state)
        }
    }

    // Control protocol: decode a request line, parse the command, encode a status response.
    Benchmark("ProtocolRequestAndStatus",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], thresholds: tolerances)) { benchmark in
        let line = Data(#"{"id":7,"cmd":"search","args":{"term":"jack johnson","limit":20}}"#.utf8)
        let status = StatusReport(state: .playing, index: 3, positionMs: 12_000, durationMs: 30_000, queueLength: 50,
                                  track: Track(trackId: 1, trackName: "Upside Down", artistName: "Jack Johnson",
                                               collectionName: "Curious George", previewUrl: "https://example.com/p.m4a"),
                                  error: nil, output: "ok")
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        for _ in benchmark.scaledIterations {
            let request = try decoder.decode(ControlRequest.self, from: line)
            blackHole(try ControlCommand(request))
            blackHole(try encoder.encode(ControlResponse.success(id: request.id, try JSONValue(encoding: status))))
        }
    }
}
