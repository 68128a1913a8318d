import PreviewCore

/// An `--output` value's own settings: `--output VALUE[,key=value]...`, as in
/// `--output http://127.0.0.1:8000/previewd.mp3,bitrate=128`.
extension OutputOptions {
    /// Splits an `--output` argument into the output's value and its settings. A part is a setting
    /// when it starts with a lowercase key and `=`; what comes before the first setting is the
    /// value, commas and all (ALSA's `hw:1,0` and `plughw:CARD=PCH,DEV=0` stay whole). Throws on an
    /// empty value, an empty or repeated key, or a part after the settings that is not one.
    public static func split(_ argument: String) throws(OutputValueError) -> (output: String, settings: [String: String]) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard let firstSetting = parts.firstIndex(where: isSetting) else { return (argument, [:]) }
        let output = parts[..<firstSetting].joined(separator: ",")
        guard !output.isEmpty else { throw OutputValueError("--output \(argument): the output comes first, then its settings (as in http://127.0.0.1:8000/previewd.mp3,bitrate=128)") }
        var settings: [String: String] = [:]
        for part in parts[firstSetting...] {
            guard isSetting(part), let equals = part.firstIndex(of: "=") else {
                throw OutputValueError("--output \(argument): expected key=value after the output (got \(part.isEmpty ? "an empty part" : String(part)))")
            }
            let key = String(part[..<equals])
            guard settings[key] == nil else { throw OutputValueError("--output \(argument): \(key) is given twice") }
            settings[key] = String(part[part.index(after: equals)...])
        }
        return (output, settings)
    }

    /// Throws when the output was given settings (for the outputs that take none).
    public func refuseSettings() throws(OutputValueError) {
        if let key = settings.keys.sorted().first { throw OutputValueError("--output \(output) takes no setting \(key)") }
    }

    /// `key=…` with a key of lowercase letters, digits, - and _, starting with a letter.
    private static func isSetting(_ part: Substring) -> Bool {
        guard let equals = part.firstIndex(of: "="), let first = part.first, first.isASCII, first.isLowercase else { return false }
        return part[..<equals].allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
