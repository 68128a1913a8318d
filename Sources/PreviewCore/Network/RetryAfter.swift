/// HTTP's `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP-date. Apple sends it
/// with 403, 429 and 503.
public enum RetryAfter {
    /// Seconds to wait from `now` (seconds since 1970, UTC) for `value`, never negative; nil when
    /// it is neither form.
    public static func seconds(_ value: String, now: Int) -> Int? {
        let text = value.trimmingWhitespace()
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return text.count > 9 ? 999_999_999 : Int(text)   // a delay in seconds; a longer one than fits is "very long"
        }
        guard let date = epochSeconds(ofHTTPDate: text) else { return nil }
        return max(0, date - now)
    }

    /// The time an HTTP-date names, in seconds since 1970: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37
    /// GMT`), and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`) forms a recipient must read.
    public static func epochSeconds(ofHTTPDate text: String) -> Int? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        let day: Int?, month: Int?, year: Int?, clock: String
        switch words.count {
        case 6 where words[5] == "GMT":   // IMF-fixdate
            (day, month, year, clock) = (Int(words[1]), months.firstIndex(of: words[2]), Int(words[3]), words[4])
        case 4 where words[3] == "GMT":   // RFC 850: two-digit years are read as 1970–2069
            let date = words[1].split(separator: "-").map(String.init)
            guard date.count == 3, let short = Int(date[2]) else { return nil }
            (day, month, clock) = (Int(date[0]), months.firstIndex(of: date[1]), words[2])
            year = date[2].count == 2 ? (short < 70 ? 2000 + short : 1900 + short) : short
        case 5:                           // asctime
            (day, month, year, clock) = (Int(words[2]), months.firstIndex(of: words[1]), Int(words[4]), words[3])
        default: return nil
        }
        let time = clock.split(separator: ":").compactMap { Int($0) }
        guard let day, let month, let year, (1...31).contains(day), (1970...9999).contains(year), time.count == 3,
              (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        return daysSince1970(year: year, month: month + 1, day: day) * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Days from 1970-01-01 to the date (the proleptic Gregorian calendar; Howard Hinnant's days_from_civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
