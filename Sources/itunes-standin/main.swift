import Foundation
import ITunesStandIn

// The stand-in of the iTunes Search API as a process, for scripts/demo and the benchmarks:
//   itunes-standin --catalog FILE --previews DIR [--port N] [--preview-delay-ms N]
// Prints "http://127.0.0.1:PORT" on its first line of stdout, then serves until killed.
var arguments = CommandLine.arguments.dropFirst()
var options: [String: String] = [:]
while let key = arguments.popFirst() {
    guard key.hasPrefix("--"), let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("usage: itunes-standin --catalog FILE --previews DIR [--port N] [--preview-delay-ms N]\n".utf8))
        exit(64)
    }
    options[String(key.dropFirst(2))] = value
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
print(server.baseURL)
fflush(stdout)
signal(SIGTERM, SIG_DFL)
while true { pause() }
