// libFuzzer target: the control protocol parser (line framing, request decoding, argument checks).
// A command that parses must survive a round trip through its own request form.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func controlFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    var framer = LineFramer(maxLineLength: 4096)
    // Feed in two pieces so a line split across reads is exercised too.
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var lines: [[UInt8]] = []
    for piece in [bytes[..<cut], bytes[cut...]] {
        guard let more = try? framer.feed(piece) else { return 0 }
        lines += more
    }
    for line in lines {
        guard let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(line)) else { continue }
        guard let command = try? ControlCommand(request) else { continue }
        let again = try? ControlCommand(command.request(id: request.id))
        precondition(again == command, "round trip changed \(command) into \(String(describing: again))")
    }
    return 0
}
