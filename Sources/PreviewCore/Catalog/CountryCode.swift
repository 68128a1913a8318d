/// iTunes storefronts are named by two-letter country codes (US, gb, …).
public enum CountryCode {
    /// True when `code` is two ASCII letters, in either case.
    public static func isValid(_ code: String) -> Bool {
        code.count == 2 && code.allSatisfy { $0.isASCII && $0.isLetter }
    }
}
