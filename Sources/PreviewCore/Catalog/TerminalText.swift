/// Makes untrusted text (names from the API) safe to print to a terminal.
public enum TerminalText {
    /// `text` with control characters (escape sequences), bidirectional overrides and other format
    /// characters replaced by U+FFFD, so a track name cannot move the cursor or reorder the line.
    public static func sanitized(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }

    /// `json` (one encoded JSON text) with every character a terminal would act on written as a
    /// `\uXXXX` escape: DEL, C1 controls, bidirectional and other format characters, line and
    /// paragraph separators. The JSON means the same; printed, it cannot move the cursor or reorder
    /// the line. (C0 controls are already escaped by any JSON encoder; such characters can occur only
    /// inside strings, so escaping them anywhere in the text is safe.)
    public static func escapedJSON(_ json: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(json.unicodeScalars.count)
        for scalar in json.unicodeScalars {
            guard scalar.value >= 0x7F, isUnsafe(scalar) else { out.unicodeScalars.append(scalar); continue }
            for unit in String(scalar).utf16 {   // a pair of escapes beyond the Basic Multilingual Plane
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: return true
        default: return false
        }
    }
}
