import PreviewCore

// How previewctl's users type a seek and a volume; the protocol itself takes numbers.

extension SeekTarget {
    /// Parses previewctl's forms: `SECONDS`, `M:SS`, `+N`, `-N` (N in seconds, fractions allowed).
    init?(typed text: String) {
        let trimmed = text.trimmingWhitespace()
        guard let sign = trimmed.first else { return nil }
        let relative = sign == "+" || sign == "-"
        let body = relative ? String(trimmed.dropFirst()) : trimmed
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let last = Double(parts.last!), last >= 0, last.isFinite else { return nil }
        var seconds = last
        if parts.count == 2 {
            guard let minutes = Int(parts[0]), minutes >= 0, last < 60 else { return nil }
            seconds += Double(minutes * 60)
        }
        guard seconds < 86_400 else { return nil }
        let ms = Int((seconds * 1000).rounded())
        self = relative ? .relative(ms: sign == "-" ? -ms : ms) : .absolute(ms: ms)
    }
}

extension VolumeChange {
    /// Parses previewctl's forms: `N` (0–100), `+N`, `-N` (any N: the level is clamped to 0–100, as
    /// MPD's `volume` does; an absolute level outside 0–100 is refused, as MPD's `setvol` does).
    init?(typed text: String) {
        guard let first = text.first, let n = Int(text.dropFirst(first == "+" || first == "-" ? 1 : 0)), n >= 0,
              first == "+" || first == "-" || n <= 100 else { return nil }
        let step = min(n, 100)   // no step goes further than from one end to the other
        switch first {
        case "+": self = .by(step)
        case "-": self = .by(-step)
        default: self = .set(n)
        }
    }
}

