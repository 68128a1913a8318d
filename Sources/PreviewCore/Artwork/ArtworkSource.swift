/// Where a track's artwork is fetched from, and what the bytes must be.
public enum ArtworkSource {
    /// The side Apple's artwork URLs are asked for at (`…/600x600bb.jpg`).
    public static let side = 600

    /// The URLs to try, best first: Apple's `artworkUrl100` with its size rewritten to 600×600
    /// (`…/100x100bb.jpg` → `…/600x600bb.jpg`), then the URL as given. Only fetchable URLs.
    public static func candidates(for url: String) -> [String] {
        guard PreviewURLPolicy.isFetchable(url) else { return [] }
        guard let slash = url.lastIndex(of: "/") else { return [url] }
        let name = url[url.index(after: slash)...]
        // Apple's names: WIDTHxHEIGHT then letters (bb, cc, …) then .jpg or .png.
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        let rest = name.dropFirst(digits.count)
        guard !digits.isEmpty, rest.first == "x" else { return [url] }
        let height = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
        let suffix = rest.dropFirst(1 + height.count)
        guard !height.isEmpty, suffix.hasSuffix(".jpg") || suffix.hasSuffix(".png") else { return [url] }
        let letters = suffix.dropLast(4)
        guard letters.allSatisfy({ $0.isASCII && $0.isLetter }) else { return [url] }
        let large = String(url[...slash]) + "\(side)x\(side)\(letters).jpg"
        return large == url ? [url] : [large, url]
    }

    /// The image formats accepted.
    public enum Kind: String, Sendable {
        case jpeg, png

        /// The file name extension.
        public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    }

    /// What `bytes` are by their signature: a JPEG (FF D8 FF) or a PNG (its 8-byte signature); nil otherwise.
    public static func kind(of bytes: some Collection<UInt8>) -> Kind? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        return nil
    }
}
