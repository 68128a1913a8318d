import Foundation
import PreviewCore
import PreviewEngine

// decode-clip FILE [TIMES]: decodes FILE with previewd's decoder (AVIO bridge over bytes in memory,
// AAC decode, resample to 48 kHz float stereo) TIMES times and prints one line:
//   cpu_s=… wall_s=… frames=… open_first_ms=…
// CPU is this process's user+system time for the decoding only (after the file is read).
let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: decode-clip FILE [TIMES]\n".utf8))
    exit(64)
}
let times = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
let bytes = PreviewBytes()
bytes.expect(length: data.count)
bytes.append(data)
bytes.finish()

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

let cpuStart = cpuSeconds()
let wallStart = Date()
var frames = 0
var firstMs: [Double] = []
for _ in 0..<times {
    let opened = Date()
    let pipeline = try DecodePipeline(source: bytes, format: .preferred)
    var first = true
    while let chunk = try pipeline.next() {
        if first { firstMs.append(Date().timeIntervalSince(opened) * 1000); first = false }
        frames += chunk.frames
    }
}
let cpu = cpuSeconds() - cpuStart
let wall = Date().timeIntervalSince(wallStart)
firstMs.sort()
print(String(format: "cpu_s=%.4f wall_s=%.4f frames=%d open_first_ms=%.3f", cpu, wall, frames, firstMs[firstMs.count / 2]))
