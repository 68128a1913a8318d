import CQREncode

/// A QR code made by libqrencode, drawn in a terminal with half blocks: two rows of modules per line
/// of text. Light modules are drawn (the terminal's text colour, light on the usual dark background)
/// and dark ones left blank, with the four-module quiet zone a reader needs, as `qrencode -t UTF8` does.
struct QRCode {
    /// Modules per side, without the quiet zone.
    let width: Int
    /// Row-major, true for a dark module.
    let modules: [Bool]
    /// The quiet zone's width in modules.
    static let quietZone = 4

    /// Encodes `text` (8-bit mode, error correction M), or nil when libqrencode cannot.
    init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        self.width = width
        modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at (`x`, `y`) is dark, counting the quiet zone (always light).
    func isDark(_ x: Int, _ y: Int) -> Bool {
        let x = x - Self.quietZone, y = y - Self.quietZone
        guard (0..<width).contains(x), (0..<width).contains(y) else { return false }
        return modules[y * width + x]
    }

    /// The code as lines of `█`, `▀`, `▄` and spaces.
    func halfBlocks() -> [String] {
        let side = width + 2 * Self.quietZone
        return stride(from: 0, to: side, by: 2).map { y in
            String((0..<side).map { x -> Character in
                let topLight = !isDark(x, y), bottomLight = y + 1 < side ? !isDark(x, y + 1) : true
                switch (topLight, bottomLight) {
                case (true, true): return "█"
                case (true, false): return "▀"
                case (false, true): return "▄"
                case (false, false): return " "
                }
            })
        }
    }
}
