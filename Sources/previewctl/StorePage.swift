import Glibc
import PreviewCore

/// Opens a track's store page (its trackViewUrl) in the desktop's browser: `xdg-open`, else
/// `$BROWSER` (its first command; `%s` in it is the URL). Only http and https pages written in
/// printable ASCII are opened or shown: the URL comes from the catalog and must be neither a file or
/// a script nor anything a terminal acts on (a real store URL is percent-encoded ASCII).
enum StorePage {
    enum Outcome: Equatable {
        /// Handed to this program.
        case opened(String)
        /// Neither xdg-open nor $BROWSER: the caller shows the URL.
        case noBrowser
        /// Why it was not opened.
        case failed(String)
    }

    /// Opens `url`, waiting for the opener to return. `quiet`: its output goes to /dev/null (under
    /// the full-screen player it would scribble on the screen).
    static func open(_ url: String, quiet: Bool = false) -> Outcome {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"),
              url.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            return .failed("not a web address: \(TerminalText.sanitized(url))")
        }
        let argv: [String]
        if let opener = ProcessSearch.which("xdg-open") {
            argv = [opener, url]
        } else if let browser = getenv("BROWSER").map({ String(cString: $0) }),
                  let first = browser.split(separator: ":").first, !first.isEmpty {
            let words = first.split(separator: " ").map(String.init)
            argv = words.contains("%s") ? words.map { $0 == "%s" ? url : $0 } : words + [url]
        } else {
            return .noBrowser
        }
        return run(argv, quiet: quiet) ? .opened(argv[0]) : .failed("\(argv[0]) could not open it")
    }

    /// Runs `argv` (searched on PATH) and waits; true when it exits 0.
    private static func run(_ argv: [String], quiet: Bool) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, argv[0], &actions, nil, arguments, environ) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status == 0
    }
}

/// PATH lookups.
enum ProcessSearch {
    /// The executable `name` on PATH, or nil.
    static func which(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
