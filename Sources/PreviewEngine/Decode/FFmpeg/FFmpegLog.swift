import CFFmpeg
import CPreviewLinux
import PreviewCore

/// Routes FFmpeg's own log lines into previewd's log (`av_log_set_callback`): at the matching level,
/// prefixed with the FFmpeg component and the track the logging thread decodes (its
/// `cpl_set_thread_label`), with a run of identical lines written once. (`Log` makes every line
/// terminal-safe: an FFmpeg line may quote bytes of the file.)
public enum FFmpegLog {
    /// The log FFmpeg writes to. Set once by `install`, before any decoder thread starts.
    nonisolated(unsafe) fileprivate static var log = Log()

    /// Sends FFmpeg's log lines to `log` from now on. Call once at start, before decoding.
    public static func install(_ log: Log) {
        Self.log = log
        av_log_set_callback(ffmpegLogLine)
    }

    /// Runs `body` with FFmpeg's log lines of this thread dropped: for a decode of a prefix of a
    /// preview, which ends mid-packet by design (the decoder reading the whole preview reports
    /// whatever is really wrong with it), and for artwork, whose faults are answers, not log lines.
    static func quietly<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        cpl_set_thread_quiet(1)
        defer { cpl_set_thread_quiet(0) }
        return try body()
    }

    /// The thread's quiet mark once a read of the preview's bytes failed (1 drops every line).
    static let afterFailedRead: Int32 = 2

    /// Marks this thread's FFmpeg lines as following a failed read, until `readsAgain`.
    static func readFailed() {
        if cpl_thread_quiet() == 0 { cpl_set_thread_quiet(afterFailedRead) }
    }

    /// The thread decodes something else now: FFmpeg's lines keep their own levels.
    static func readsAgain() {
        if cpl_thread_quiet() == afterFailedRead { cpl_set_thread_quiet(0) }
    }

    /// previewd's level for FFmpeg's: panic, fatal and error are errors, warnings warnings, info
    /// info, verbose debug; nil for FFmpeg's own debug and trace levels (a line per box and packet,
    /// for FFmpeg's developers), which are dropped.
    static func level(_ ffmpegLevel: Int32) -> Log.Level? {
        switch ffmpegLevel {
        case ...AV_LOG_ERROR: return .error
        case ...AV_LOG_WARNING: return .warning
        case ...AV_LOG_INFO: return .info
        case ...AV_LOG_VERBOSE: return .debug
        default: return nil
        }
    }
}

/// FFmpeg's log callback: formats one line without FFmpeg's `[name @ 0x…]` prefix (the address is
/// noise in a log) and writes it with the component's name instead.
private func ffmpegLogLine(_ context: UnsafeMutableRawPointer?, _ ffmpegLevel: Int32, _ format: UnsafePointer<CChar>?,
                           _ arguments: CVaListPointer?) {
    let log = FFmpegLog.log
    let quiet = cpl_thread_quiet()
    guard let format, let arguments, ffmpegLevel >= AV_LOG_PANIC, let said = FFmpegLog.level(ffmpegLevel), quiet != 1 else { return }
    // After a read failed (a download that failed or was cut, a load cancelled), FFmpeg's complaints
    // are expected: the decoder reports the real cause. Info, naming the track.
    let level = quiet == FFmpegLog.afterFailedRead && said > .info ? Log.Level.info : said
    guard level >= log.minimum else { return }
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { buffer in
        var printPrefix: Int32 = 0
        guard av_log_format_line2(context, ffmpegLevel, format, arguments, buffer.baseAddress, Int32(buffer.count),
                                  &printPrefix) >= 0 else { return }
        var suppressed: UInt = 0
        guard cpl_log_once(buffer.baseAddress, &suppressed) != 0 else { return }
        let message = String(cString: buffer.baseAddress!).trimmingWhitespace()
        guard !message.isEmpty else { return }
        let component = context.flatMap { $0.load(as: UnsafePointer<AVClass>?.self) }
            .flatMap { avClass in avClass.pointee.item_name?(context) }.map { String(cString: $0) } ?? "ffmpeg"
        let label = String(cString: cpl_thread_label())
        let repeated = suppressed > 0 ? " (the line before was repeated \(suppressed) more times)" : ""
        log(level, "ffmpeg \(component)\(label.isEmpty ? "" : " [\(label)]"): \(message)\(repeated)")
    }
}
