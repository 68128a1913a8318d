import Foundation
import ITunesStandIn

// The stand-in of the iTunes Search API as a process, for scripts/demo, scripts/soak and the benchmarks:
//   itunes-standin --catalog FILE --previews DIR [--recordings DIR] [--port N] [--preview-delay-ms N] [--probe-answer ok|notfound|close501|silent|reset] [--fault PATH=SPEC ...]
// SPEC: status:N, delay:MS, throttle:BYTES_PER_S, html, drop:BYTES, ignore-range.
// Prints "http://127.0.0.1:PORT" on its first line of stdout, then serves until killed.
var arguments = CommandLine.arguments.dropFirst()
var options: [String: String] = [:]
var faults: [(String, StandInFault)] = []
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: itunes-standin --catalog FILE --previews DIR [--recordings DIR] [--port N] [--preview-delay-ms N] [--fault PATH=SPEC]\n".utf8))
    exit(64)
}
func fault(_ spec: Substring) -> StandInFault? {
    let parts = spec.split(separator: ":", maxSplits: 1)
    let number = parts.count == 2 ? Int(parts[1]) : nil
    switch (parts.first ?? "", number) {
    case ("status", let n?): return .status(n)
    case ("delay", let n?): return .delay(milliseconds: n)
    case ("throttle", let n?): return .throttle(bytesPerSecond: n)
    case ("drop", let n?): return .dropAfter(bytes: n)
    case ("html", nil): return .html
    case ("ignore-range", nil): return .ignoreRange
    default: return nil
    }
}
while let key = arguments.popFirst() {
    guard key.hasPrefix("--"), let value = arguments.popFirst() else { usage() }
    if key == "--fault" {
        let pair = value.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, let parsed = fault(pair[1]) else { usage() }
        faults.append((String(pair[0]), parsed))
    } else {
        options[String(key.dropFirst(2))] = value
    }
}
guard let catalog = options["catalog"], let previews = options["previews"] else {
    FileHandle.standardError.write(Data("itunes-standin: --catalog and --previews are required\n".utf8))
    exit(64)
}
let server = StandInServer(catalogFile: URL(fileURLWithPath: catalog), previewsDirectory: URL(fileURLWithPath: previews))
do {
    try server.start(port: UInt16(options["port"] ?? "0") ?? 0)
} catch {
    FileHandle.standardError.write(Data("itunes-standin: \(error)\n".utf8))
    exit(1)
}
server.setPreviewDelay(milliseconds: Int(options["preview-delay-ms"] ?? "0") ?? 0)
if let answer = options["probe-answer"] {   // how a HEAD (a pre-connect's probe) is answered
    let answers: [String: StandInProbeAnswer] = ["ok": .ok, "notfound": .notFound, "close501": .closeWith501, "silent": .silent, "reset": .reset]
    guard let chosen = answers[answer] else { usage() }
    server.setProbeAnswer(chosen)
}
for (path, fault) in faults { server.setFault(fault, forPathPrefix: path) }
if let folder = options["recordings"] {   // Apple's real answers (Tests/Fixtures/apple), served by term, id and path
    do { try server.addRecordings(in: URL(fileURLWithPath: folder)) } catch {
        FileHandle.standardError.write(Data("itunes-standin: --recordings \(folder): \(error)\n".utf8))
        exit(1)
    }
}
FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))   // unbuffered: the caller waits for this line
signal(SIGTERM, SIG_DFL)
while true { pause() }
