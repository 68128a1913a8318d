/// A track's position as a bar between the two times: `0:12 ━━━━━━──────── 0:30`.
public enum PositionBar {
    /// The bar in `width` characters (the times included); just the times when too narrow for a bar.
    public static func text(positionMs: Int, durationMs: Int?, width: Int) -> String {
        let elapsed = DisplayText.clock(positionMs)
        let total = DisplayText.clock(durationMs)
        let cells = width - elapsed.count - total.count - 2
        guard cells >= 4 else { return "\(elapsed) / \(total)" }
        let fraction = durationMs.map { $0 > 0 ? min(1, max(0, Double(positionMs) / Double($0))) : 0 } ?? 0
        let done = Int((fraction * Double(cells)).rounded())
        return elapsed + " " + String(repeating: "━", count: done) + String(repeating: "─", count: cells - done) + " " + total
    }
}
