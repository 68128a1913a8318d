import CPreviewLinux
import Glibc
import PreviewCore

/// A FIFO as the far end (`--output pipe:PATH`, snapserver's `pipe` source): the checks at start and
/// the non-blocking open.
extension StreamDestination {
    /// Why `path` cannot be a FIFO output at all (checked at start): it exists and is not a FIFO, or
    /// its folder does not exist. nil when it can.
    static func problem(withFIFO path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFIFO ? nil : "\(path) exists and is not a FIFO"
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        return folder.isEmpty || stat(folder, &info) == 0 ? nil : "the folder of \(path) does not exist"
    }

    /// Opens the FIFO's write end without waiting: ENXIO means no reader yet (snapserver not running),
    /// reported as such and tried again later. Missing, the FIFO is made (as MPD's fifo output does).
    static func openFIFO(_ path: String) -> Opened {
        if let problem = problem(withFIFO: path) { return .failed(problem) }
        if access(path, F_OK) != 0, mkfifo(path, 0o644) != 0, errno != EEXIST {
            return .failed("cannot make the FIFO \(path): \(Self.errorText())")
        }
        let fd = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return .failed(errno == ENXIO ? "nothing reads the FIFO \(path)" : "cannot open the FIFO \(path): \(Self.errorText())")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else {
            Glibc.close(fd)
            return .failed("\(path) is not a FIFO")
        }
        _ = cpl_set_pipe_size(fd, kernelBuffer)   // best effort: a smaller pipe holds less unheard audio
        return .ready(fd)
    }
}

extension OutputRegistry.Entry {
    /// `--output pipe:PATH`: a FIFO, made if missing (snapserver's `pipe` source).
    static let pipe = OutputRegistry.Entry(usage: "pipe:PATH", mpdPlugin: "fifo", playsToDevice: false, claims: { $0.hasPrefix(PipePath.scheme) }) { options in
        let fifo = try PipePath(parsing: options.output)
        try options.refusePulseOptions()
        try options.refuseALSAOptions()
        try options.acceptSettings([])
        if let problem = StreamDestination.problem(withFIFO: fifo.path) { throw OutputValueError("--output \(fifo): \(problem)") }
        return stream(to: .fifo(path: fifo.path), options)
    }
}
