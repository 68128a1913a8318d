/// A picture drawn in a terminal with half blocks: each character cell is "▀" with the upper
/// pixel as its foreground colour and the lower one as its background, so a cell holds two pixels
/// stacked (terminal cells are about twice as tall as wide: the pixels come out square).
public enum HalfBlockImage {
    /// How many colours the terminal shows.
    public enum Colors: Equatable, Sendable {
        /// 24-bit colour (`COLORTERM=truecolor`).
        case truecolor
        /// The 256-colour palette (`TERM=…-256color`): pixels go to the nearest of its 6×6×6 cube.
        case palette256
    }

    /// What a terminal can draw, from its environment: nil for text alone (not a terminal unless
    /// `CLICOLOR_FORCE` says draw anyway, `NO_COLOR`, a dumb terminal, or only 8 or 16 colours).
    public static func colors(environment: [String: String], isTerminal: Bool) -> Colors? {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return nil }
        let forced = environment["CLICOLOR_FORCE"].map { !$0.isEmpty && $0 != "0" } ?? false
        let term = environment["TERM"] ?? ""
        guard forced || (isTerminal && !term.isEmpty && term != "dumb") else { return nil }
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" || term.hasSuffix("-direct") { return .truecolor }
        if term.contains("256color") { return .palette256 }
        return forced ? .truecolor : nil
    }

    /// The picture as lines of `(report.height + 1) / 2` cells each `report.width` wide, each line
    /// ending with the colours reset. An odd last row is drawn over the terminal's own background.
    public static func lines(_ image: ArtworkReport, colors: Colors) -> [String] {
        stride(from: 0, to: image.height, by: 2).map { y in
            var line = ""
            for x in 0..<image.width {
                let top = image.pixel(x, y)
                if y + 1 < image.height {
                    let bottom = image.pixel(x, y + 1)
                    line += "\u{1B}[" + code(top, foreground: true, colors) + ";" + code(bottom, foreground: false, colors) + "m▀"
                } else {
                    line += "\u{1B}[0;" + code(top, foreground: true, colors) + "m▀"
                }
            }
            return line + "\u{1B}[0m"
        }
    }

    /// The SGR parameters that set a foreground or background colour.
    private static func code(_ pixel: (r: UInt8, g: UInt8, b: UInt8), foreground: Bool, _ colors: Colors) -> String {
        let layer = foreground ? "38" : "48"
        switch colors {
        case .truecolor:
            return "\(layer);2;\(pixel.r);\(pixel.g);\(pixel.b)"
        case .palette256:
            func level(_ v: UInt8) -> Int { (Int(v) * 5 + 127) / 255 }
            return "\(layer);5;\(16 + 36 * level(pixel.r) + 6 * level(pixel.g) + level(pixel.b))"
        }
    }

    /// `picture` with `text` beside it (two spaces apart), the text's lines starting at the top;
    /// lines past the picture's are indented to keep the text's column.
    public static func beside(_ picture: [String], width: Int, _ text: [String]) -> [String] {
        let blank = String(repeating: " ", count: width)
        return (0..<max(picture.count, text.count)).map { i in
            let left = i < picture.count ? picture[i] : blank
            return i < text.count ? left + "  " + text[i] : left
        }
    }
}
