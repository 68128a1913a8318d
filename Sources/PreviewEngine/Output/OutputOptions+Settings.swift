import PreviewCore

/// One `--output` value's own options: `--output VALUE[,key=value]...`, as in
/// `--output pulse,sink=foo,name=Speakers` or `--output http://127.0.0.1:8000/previewd.mp3,bitrate=128`.
extension OutputOptions {
    /// Splits an `--output` argument into its value and its settings. A segment after a comma is a
    /// setting when it starts with a lower-case key and `=` (`sink=foo`); until the first one, commas
    /// belong to the value, so ALSA's `alsa:hw:1,0` and `alsa:plughw:CARD=x,DEV=0` stay whole (ALSA's
    /// own keys are upper-case). A key given twice, an empty value, or a segment that is not a
    /// setting after one that is, is refused.
    public static func split(_ argument: String) throws(OutputValueError) -> (output: String, settings: [String: String]) {
        let segments = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var value: [String] = []
        var settings: [String: String] = [:]
        for segment in segments {
            guard !value.isEmpty, let equals = segment.firstIndex(of: "="), isKey(segment[..<equals]) else {
                if !settings.isEmpty {
                    throw OutputValueError("--output \(argument): \"\(segment)\" is not key=value (options come after the output, as in pulse,sink=NAME,name=Speakers)")
                }
                value.append(segment)
                continue
            }
            let key = String(segment[..<equals])
            let setting = String(segment[segment.index(after: equals)...])
            guard !setting.isEmpty else { throw OutputValueError("--output \(argument): \(key)= needs a value") }
            guard settings.updateValue(setting, forKey: key) == nil else { throw OutputValueError("--output \(argument): \(key) is given twice") }
        }
        let output = value.joined(separator: ",")
        guard !output.isEmpty else { throw OutputValueError("--output needs an output before its options (got \(argument))") }
        return (output, settings)
    }

    /// Throws when a setting is not one of `keys` (or `name`, which every output takes), naming
    /// those it takes.
    public func acceptSettings(_ keys: [String]) throws(OutputValueError) {
        let taken = Set(keys + ["name"])
        if let unknown = settings.keys.sorted().first(where: { !taken.contains($0) }) {
            throw OutputValueError("--output \(output): unknown option \(unknown)= (it takes \(taken.sorted().joined(separator: "=, "))=)")
        }
    }

    /// The output's name (`name=`), else its value: what MPD's `outputname` and the saved state use.
    public var name: String { settings["name"] ?? output }

    private static func isKey(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLowercase else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
