#!/usr/bin/env python3
"""A private network of two hosts behind TLS and round-trip time, for previewd's network tests and
benchmarks: netrig.py [options] -- COMMAND [ARG...]

Run it as root inside a network namespace of its own (`unshare -n python3 netrig.py …`): it brings
up the namespace's loopback, adds the documentation addresses 198.51.100.1 and 198.51.100.2 (TEST-NET-2,
which previewd's address policy treats as public), makes a CA and a server certificate for them and
127.0.0.1, and starts:

  the API:  https://127.0.0.1:9443   delay proxy → TLS terminator → the iTunes stand-in
  the CDN:  https://198.51.100.1:443 delay proxy → TLS terminator → the same stand-in; the catalog's
            preview and artwork URLs point here
  a mute host: 198.51.100.2:443 accepts TCP and never answers (a CDN that does not answer)
  a trap:   10.9.9.9:443, a private address previewd must never connect to; it counts who tries

Each delay proxy holds every chunk, both ways, for half the round-trip time (`--rtt-ms`); the
stand-in waits `--first-byte-ms` before a preview's first byte. Nothing inside the namespace can
reach or be reached from outside it, but Unix sockets (previewd's control socket, PulseAudio) are
files and work across it.

Then it runs COMMAND with NETRIG_API, NETRIG_CDN, NETRIG_MUTE, NETRIG_TRAP (base URLs), NETRIG_CA (the CA's PEM) and
NETRIG_STATS (a JSON file rewritten on every event) in its environment, and exits with its status when
it ends (or ends it on SIGTERM). The statistics, per host: connections accepted (with when, on the
rig's monotonic clock in seconds), full and resumed TLS handshakes, connections open now, and every
request (path, connection number, when it arrived, when its answer began).
"""
import argparse, asyncio, json, os, signal, subprocess, sys, tempfile, time

CDN_IP, MUTE_IP, TRAP_IP = "198.51.100.1", "198.51.100.2", "10.9.9.9"

class Stats:
    def __init__(self, path):
        self.path, self.hosts = path, {}
    def host(self, name):
        return self.hosts.setdefault(name, {"connections": [], "full": 0, "resumed": 0, "open": 0, "requests": []})
    def save(self):
        temporary = self.path + ".part"
        with open(temporary, "w") as f: json.dump(self.hosts, f)
        os.replace(temporary, self.path)

async def pump(reader, writer, delay, on_chunk=None, first_extra=0):
    """Copies reader → writer, each chunk `delay` seconds late (the first `first_extra` more), in
    order; closes the writer at the end."""
    queue = asyncio.Queue()
    async def send():
        while True:
            due, chunk = await queue.get()
            wait = due - time.monotonic()
            if wait > 0: await asyncio.sleep(wait)
            if chunk is None: break
            writer.write(chunk)
            await writer.drain()
    sender = asyncio.ensure_future(send())
    try:
        while True:
            chunk = await reader.read(65536)
            if not chunk: break
            if on_chunk: on_chunk(chunk)
            await queue.put((time.monotonic() + delay + first_extra, chunk))
            first_extra = 0
    except (ConnectionError, OSError):
        pass
    await queue.put((time.monotonic() + delay, None))
    try:
        await sender
        if writer.can_write_eof(): writer.write_eof()
    except (ConnectionError, OSError):
        pass

async def delay_proxy(listen, upstream, delay):
    """Half the round trip each way. The kernel completes the client's TCP handshake at once, so the
    first bytes from the client wait one more round trip: a TLS handshake then ends two round trips
    after connect() began, as over a real network."""
    async def serve(reader, writer):
        try:
            up_reader, up_writer = await asyncio.open_connection(*upstream)
        except OSError:
            writer.close(); return
        await asyncio.gather(pump(reader, up_writer, delay, first_extra=2 * delay), pump(up_reader, writer, delay))
        for w in (writer, up_writer): w.close()
    return await asyncio.start_server(serve, *listen)

async def terminator(listen, backend, context, stats, name):
    """TLS in front of the stand-in, counting connections, handshakes and requests."""
    host = stats.host(name)
    async def serve(reader, writer):
        number = len(host["connections"])
        host["connections"].append({"accepted": time.monotonic()})
        host["open"] += 1
        stats.save()
        try:
            await writer.start_tls(context)
        except (ConnectionError, OSError, asyncio.IncompleteReadError, Exception):
            host["open"] -= 1; stats.save(); writer.close(); return
        reused = writer.get_extra_info("ssl_object").session_reused
        host["resumed" if reused else "full"] += 1
        host["connections"][number]["resumed"] = reused
        stats.save()
        try:
            back_reader, back_writer = await asyncio.open_connection(*backend)
        except OSError:
            host["open"] -= 1; stats.save(); writer.close(); return
        pending, waiting = bytearray(), []
        def requests(chunk):   # request heads, to name each request (GETs and HEADs have no body)
            pending.extend(chunk)
            while b"\r\n\r\n" in pending:
                head, _, rest = bytes(pending).partition(b"\r\n\r\n")
                pending[:] = rest
                words = head.split(b"\r\n", 1)[0].split(b" ")
                request = {"connection": number, "method": words[0].decode(), "path": words[1].decode() if len(words) > 1 else "",
                           "at": time.monotonic()}
                host["requests"].append(request); waiting.append(request)
            stats.save()
        def answers(chunk):    # the first chunk back after a request: its answer has begun
            if waiting and b"HTTP/1." in chunk[:16]:
                waiting.pop(0)["answered"] = time.monotonic(); stats.save()
        await asyncio.gather(pump(reader, back_writer, 0, requests), pump(back_reader, writer, 0, answers))
        for w in (writer, back_writer): w.close()
        host["open"] -= 1
        host["connections"][number]["closed"] = time.monotonic()
        stats.save()
    return await asyncio.start_server(serve, *listen)

async def silent(listen, stats, name):
    """Accepts, counts and never answers."""
    host, held = stats.host(name), []
    async def serve(reader, writer):
        held.append(writer)
        host["connections"].append({"accepted": time.monotonic()})
        stats.save()
        await reader.read()
    return await asyncio.start_server(serve, *listen)

def make_certificates(folder):
    def run(*words): subprocess.run(words, check=True, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
        "-subj", "/CN=netrig test CA", "-keyout", "ca.key", "-out", "ca.pem")
    with open(os.path.join(folder, "san.ext"), "w") as f:
        f.write(f"subjectAltName=IP:127.0.0.1,IP:{CDN_IP},IP:{MUTE_IP}\nbasicConstraints=CA:FALSE\n")
    run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=netrig",
        "-keyout", "server.key", "-out", "server.csr")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "2", "-extfile", "san.ext", "-out", "server.pem")
    return os.path.join(folder, "ca.pem"), os.path.join(folder, "server.pem"), os.path.join(folder, "server.key")

async def main():
    parser = argparse.ArgumentParser(prog="netrig.py")
    parser.add_argument("--standin", required=True, help="the itunes-standin executable")
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--previews", required=True)
    parser.add_argument("--rtt-ms", type=float, default=40)
    parser.add_argument("--first-byte-ms", type=int, default=20)
    parser.add_argument("--probe-answer", default="ok", choices=["ok", "notfound", "close501", "silent", "reset"],
                        help="how the stand-in answers a HEAD (a pre-connect's probe), on both hosts")
    parser.add_argument("--state", help="folder for the certificates and statistics (default: a new temporary one)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command: parser.error("no command to run")
    for words in (["ip", "link", "set", "lo", "up"], ["ip", "addr", "add", CDN_IP + "/32", "dev", "lo"],
                  ["ip", "addr", "add", MUTE_IP + "/32", "dev", "lo"], ["ip", "addr", "add", TRAP_IP + "/32", "dev", "lo"]):
        subprocess.run(words, check=True)
    state = options.state or tempfile.mkdtemp(prefix="netrig-")
    ca, certificate, key = make_certificates(state)
    with open(options.catalog) as f: catalog = f.read().replace("{{BASE}}", f"https://{CDN_IP}")
    catalog_file = os.path.join(state, "catalog.json")
    with open(catalog_file, "w") as f: f.write(catalog)
    standin = subprocess.Popen([options.standin, "--catalog", catalog_file, "--previews", options.previews,
                                "--preview-delay-ms", str(options.first_byte_ms), "--probe-answer", options.probe_answer],
                               stdout=subprocess.PIPE, text=True)
    try:
        return await serve(options, command, state, certificate, key, ca, standin)
    finally:
        standin.kill()

async def serve(options, command, state, certificate, key, ca, standin):
    backend_port = int(standin.stdout.readline().strip().rsplit(":", 1)[1])
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    context.set_alpn_protocols(["http/1.1"])
    stats = Stats(os.path.join(state, "stats.json"))
    delay = options.rtt_ms / 2000
    servers = [await terminator(("127.0.0.1", 8443), ("127.0.0.1", backend_port), context, stats, "api"),
               await delay_proxy(("127.0.0.1", 9443), ("127.0.0.1", 8443), delay),
               await terminator((CDN_IP, 8443), ("127.0.0.1", backend_port), context, stats, "cdn"),
               await delay_proxy((CDN_IP, 443), (CDN_IP, 8443), delay),
               await silent((MUTE_IP, 443), stats, "mute"),
               await silent((TRAP_IP, 443), stats, "trap")]
    stats.save()
    environment = dict(os.environ, NETRIG_API="https://127.0.0.1:9443", NETRIG_CDN=f"https://{CDN_IP}",
                       NETRIG_MUTE=f"https://{MUTE_IP}", NETRIG_TRAP=f"https://{TRAP_IP}", NETRIG_CA=ca, NETRIG_STATS=stats.path)
    child = await asyncio.create_subprocess_exec(*command, env=environment)
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, lambda: child.returncode is None and child.send_signal(signal.SIGTERM))
    return await child.wait()

if __name__ == "__main__":
    status = asyncio.run(main())
    sys.stdout.flush()
    os._exit(status)   # the servers' connections go with the process (and the namespace)
