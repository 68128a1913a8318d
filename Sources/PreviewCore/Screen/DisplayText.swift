/// How previewctl writes times, prices and text fitted to a width (shared by its tables, its status
/// and the player screen).
public enum DisplayText {
    /// "0:12", "1:02:03"; "-:--" for an unknown time.
    public static func clock(_ ms: Int?) -> String {
        guard let ms else { return "-:--" }
        let seconds = max(0, ms) / 1000
        if seconds >= 3600 { return "\(seconds / 3600):" + zeroPadded(seconds / 60 % 60, width: 2) + ":" + zeroPadded(seconds % 60, width: 2) }
        return "\(seconds / 60):" + zeroPadded(seconds % 60, width: 2)
    }

    /// "1.29 USD"; empty for no price or Apple's -1 (not sold alone).
    public static func price(_ t: Track) -> String {
        guard let amount = t.trackPrice ?? t.collectionPrice, amount >= 0 else { return "" }
        let cents = Int((amount * 100).rounded())
        return "\(cents / 100)." + zeroPadded(cents % 100, width: 2) + (t.currency.map { " \($0)" } ?? "")
    }

    /// `value` in decimal with leading zeros to `width` digits.
    public static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `text` cut to `width` terminal cells, an ellipsis marking the cut.
    public static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        guard cells(text) > width else { return text }
        var cut = ""
        var used = 0
        for character in text {
            let size = cells(character)
            if used + size > width - 1 { break }
            cut.append(character)
            used += size
        }
        return cut + "…"
    }

    /// `text` fitted to `width` cells and padded with spaces to it (on the left with `alignedRight`).
    public static func padded(_ text: String, _ width: Int, alignedRight: Bool = false) -> String {
        let cut = fit(text, width)
        let pad = String(repeating: " ", count: max(0, width - cells(cut)))
        return alignedRight ? pad + cut : cut + pad
    }

    /// The terminal cells `text` takes.
    public static func cells(_ text: String) -> Int {
        text.reduce(0) { $0 + cells($1) }
    }

    /// The terminal cells one character (a grapheme: a base and its marks, or an emoji sequence)
    /// takes, as terminals draw it: 2 for East Asian wide and fullwidth characters (CJK, kana,
    /// Hangul, fullwidth forms) and emoji shown as emoji, 0 for a lone zero-width one, else 1.
    public static func cells(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let base = scalars.first else { return 0 }
        if base.value < 0x7F { return base.value < 0x20 ? 0 : 1 }
        let properties = base.properties
        if properties.isEmojiPresentation || (properties.isEmoji && scalars.contains("\u{FE0F}")) { return 2 }
        if wideRanges.contains(where: { $0.contains(base.value) }) { return 2 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F), emoji aside.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18CFF,
        0x1AFF0...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
