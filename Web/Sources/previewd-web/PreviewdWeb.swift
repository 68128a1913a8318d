import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOPosix
import PreviewCore

/// previewd-web: previewd's remote in a browser, over one connection to previewd's control socket.
struct PreviewdWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "previewd-web",
        abstract: "A web remote for previewd: search, the player and the queue on a phone or a desktop browser.",
        discussion: """
            previewd-web serves one page (search and player) and relays previewd's events to it over a \
            WebSocket; it talks to previewd through its control socket, like previewctl.

            On loopback (the default, 127.0.0.1:8765) no secret is needed. Any other listen address needs \
            pairing: run `previewd-web --pair` once, open the address it prints (or scan its QR code) on the \
            phone, or type the six-digit code it prints on the remote's "Pair this device" page (a Home \
            Screen copy on an iPhone keeps cookies apart from Safari's and has no address bar); the token is \
            kept in CONFIG/web-token (0600) and in the phone's cookie. A code lives 5 minutes and pairs once; \
            five wrong codes in a row lock pairing by code for a minute. \
            `previewd-web --pair --revoke` makes a new token and unpairs every device.

            With --tls-cert and --tls-key it serves HTTPS (and the cookie is Secure); the certificate is \
            the user's own (a local CA's, or one for a DNS name given with --allow-host).

            Every request's Host must be one previewd-web serves; WebSocket upgrades and requests that change \
            anything need the page's own Origin and a JSON body. Under systemd, previewd-web.socket hands \
            the listening socket over and --listen is not needed.

            GET /ws is a WebSocket and POST /api (application/json) takes one request: previewd's own \
            requests and answers (previewd's docs/PROTOCOL.md), for the commands a remote needs; the \
            WebSocket also carries previewd's events and {"event": "daemon", "state": "up"|"down"}. \
            previewd-web's own error codes: unavailable (previewd is not running), busy (too many \
            requests wait), rate-limited (over 20 a second on one WebSocket), superseded (a newer search \
            from the same page replaced a waiting one), unpaired (the pairing was revoked).

            The QR code is drawn with half blocks, light modules as blocks and dark ones as spaces (as \
            `qrencode -t UTF8` does), for a terminal with light text on a dark background.

            Exit status: runs until stopped (SIGTERM or SIGINT); 0 after --pair; 2 it could not start \
            (a non-loopback address with no pairing token, an address it cannot listen on, a socket systemd \
            passed that is not TCP, a token it cannot write); 64 bad usage.

            Files: the pairing token CONFIG/web-token and the pairing code CONFIG/web-pair-code (`CODE EXPIRY`, \
            Unix seconds), CONFIG being --config-dir or \
            $XDG_CONFIG_HOME/previewd (else ~/.config/previewd); previewd's control socket \
            $XDG_RUNTIME_DIR/previewd.sock (else /tmp/previewd-UID/previewd.sock), or --socket PATH.

            Environment: XDG_CONFIG_HOME, HOME (the token's folder); XDG_RUNTIME_DIR (previewd's socket); \
            LISTEN_FDS and LISTEN_PID (socket activation, as sd_listen_fds reads them).

            Examples:
              previewd-web
              previewd-web --pair --listen 0.0.0.0:8765
              previewd-web --listen 0.0.0.0:8765 --allow-host hifi.home.arpa
              previewd-web --pair --revoke
            """)

    @Option(name: .customLong("listen"), help: ArgumentHelp("Listen on ADDRESS: IP:PORT or [IPv6]:PORT (repeatable).", valueName: "address"))
    var listen: [String] = []

    @Option(help: ArgumentHelp("previewd's control socket (default: $XDG_RUNTIME_DIR/previewd.sock, as previewctl finds it).", valueName: "path"))
    var socket: String?

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this certificate chain (PEM); with --tls-key. With --pair: the URL is https.", valueName: "pem"))
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The private key (PEM) of --tls-cert.", valueName: "pem"))
    var tlsKey: String?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("Also answer to the host name NAME (a DNS name for this machine; repeatable).", valueName: "name"))
    var allowHost: [String] = []

    @Flag(help: "Print the pairing address and its QR code (making the token when there is none), and exit.")
    var pair = false

    @Flag(help: "With --pair: make a new token first; every paired device must pair again.")
    var revoke = false

    @Option(name: .customLong("url-host"), help: ArgumentHelp("With --pair: the host name or address the phone should open (a name must also be given to the server with --allow-host).", valueName: "name"))
    var urlHost: String?

    @Option(name: .customLong("config-dir"), help: ArgumentHelp("Where the token lives (default: $XDG_CONFIG_HOME/previewd).", valueName: "dir"))
    var configDir: String?

    func validate() throws {
        if revoke && !pair { throw ValidationError("--revoke goes with --pair") }
        if urlHost != nil && !pair { throw ValidationError("--url-host goes with --pair") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        for text in listen {
            guard let address = ListenAddress(text), address.port > 0 else {
                throw ValidationError("--listen \(text): expected IP:PORT or [IPv6]:PORT with a port from 1 to 65535")
            }
        }
    }

    /// The listen addresses given, or the default.
    var listenAddresses: [ListenAddress] {
        let given = listen.compactMap(ListenAddress.init)
        return given.isEmpty ? [ListenAddress("127.0.0.1:8765")!] : given
    }

    func run() async throws {
        let tokens = TokenStore(directory: configDir ?? TokenStore.defaultDirectory())
        if pair { return try printPairing(tokens) }

        let inherited = SocketActivation.inheritedSockets()
        let addresses = inherited.isEmpty ? listenAddresses : inherited.compactMap(SocketActivation.localAddress)
        guard inherited.isEmpty || inherited.count == addresses.count else { throw fail("a socket systemd handed over is not a TCP socket") }
        if addresses.contains(where: { !$0.isLoopback }), tokens.current() == nil {
            throw fail("listening on \(addresses.filter { !$0.isLoopback }.map(\.description).joined(separator: ", ")) needs pairing: run `previewd-web --pair` first (no token in \(tokens.path))")
        }

        var logger = Logger(label: "previewd-web")
        logger.logLevel = .warning
        let tls = tlsCert != nil
        let link = DaemonLink(socketPath: socket ?? SocketPath.defaultPath(), group: MultiThreadedEventLoopGroup.singleton)
        let guardian = RequestGuard(hosts: HostPolicy(listeners: addresses, allowHosts: allowHost, tls: tls), tokens: tokens)
        let web = WebServer(link: link, guardian: guardian, codes: PairingCodes(tokens: tokens), tls: tls, logger: logger)
        if let tlsCert, let tlsKey {
            let child: TLSChannel<HTTP1WebSocketUpgradeChannel>
            do {
                child = try TLSChannel(web.childChannel(), tlsConfiguration: TLSFiles.configuration(certificate: tlsCert, key: tlsKey))
            } catch {
                throw fail("cannot use --tls-cert \(tlsCert) --tls-key \(tlsKey): \(error)")
            }
            try await serve(child: child, web: web, addresses: addresses, inherited: inherited, logger: logger)
        } else {
            try await serve(child: web.childChannel(), web: web, addresses: addresses, inherited: inherited, logger: logger)
        }
    }

    /// Listens (or takes systemd's sockets) and serves with `child` until stopped.
    private func serve<Child: ServerChildChannel>(child: Child, web: WebServer, addresses: [ListenAddress], inherited: [Int32],
                                                  logger: Logger) async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let admit = web.admitsUpgrade
        let limit = ConnectionLimit()
        var listeners: [Listener<Child>] = []
        do {
            if inherited.isEmpty {
                for address in addresses { listeners.append(try await .bind(address, child: child, admit: admit, limit: limit, group: group, logger: logger)) }
            } else {
                for fd in inherited { listeners.append(try await .adopt(fd, child: child, admit: admit, limit: limit, group: group, logger: logger)) }
            }
        } catch {
            throw fail("cannot listen: \(error)")
        }
        // "serving" is printed once the first try to reach previewd is over, so a page opened at
        // once hears whether previewd is up rather than a "down" that turns "up" a moment later.
        let serving = listeners, link = web.link, scheme = web.tls ? "https" : "http"
        let (attempted, attemptDone) = AsyncStream.makeStream(of: Void.self)
        await withDiscardingTaskGroup { group in
            group.addTask { await link.run(firstAttempt: { attemptDone.finish() }) }
            for await _ in attempted {}
            for listener in serving {
                StandardStream.out("previewd-web: serving \(scheme)://\(listener.address?.description ?? "?")/\n")
                group.addTask { try? await listener.serve(logger: logger) }
            }
        }
    }

    private func printPairing(_ tokens: TokenStore) throws {
        let token: String, code: String
        do {
            token = try revoke ? tokens.create() : (tokens.current() ?? tokens.create())
            code = try PairingCodes(tokens: tokens).create()
        } catch {
            throw fail("cannot make the pairing token: \(error)")
        }
        let url = PairingURL.make(listeners: listenAddresses, urlHost: urlHost, tls: tlsCert != nil, token: token)
        StandardStream.out("Open \(url)\n")
        if let qr = QRCode(url) {
            StandardStream.out("\n" + qr.halfBlocks().map { $0 + "\n" }.joined())
        }
        StandardStream.out("\nOr type this code on the remote's \u{201C}Pair this device\u{201D} page (a Home Screen copy on a phone), "
                           + "within \(PairingCodes.lifetime / 60) minutes: \(code)\n")
        if revoke { StandardStream.out("\nThe old token no longer works; every device must pair again.\n") }
    }

    private func fail(_ message: String) -> ExitCode {
        StandardStream.error("previewd-web: \(message)\n")
        return ExitCode(2)
    }
}

