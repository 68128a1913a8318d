/// Makes untrusted text (names from the API) safe to print to a terminal.
public enum TerminalText {
    /// `text` with control characters (escape sequences), bidirectional overrides and other format
    /// characters replaced by U+FFFD, so a track name cannot move the cursor or reorder the line.
    public static func sanitized(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
                out.append("\u{FFFD}")
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }
}
