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

    /// `text` cut to `width` characters, an ellipsis marking the cut.
    public static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        return text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }

    /// `text` fitted to `width` and padded with spaces to it.
    public static func padded(_ text: String, _ width: Int) -> String {
        let cut = fit(text, width)
        return cut + String(repeating: " ", count: max(0, width - cut.count))
    }
}
