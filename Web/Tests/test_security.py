"""previewd-web against real parts: previewd on the iTunes stand-in with a PulseAudio null sink, and
previewd-web's release binary, driven with raw HTTP and WebSocket requests that carry exactly the
headers an attacker's page would (issue 40, "Safe on a network")."""

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

from harness import Stack, Web, WebSocket, WebSocketRefused, TIMEOUT

# An address that is not loopback, on this machine only: Web/Tests/run puts it on `lo` inside a
# network namespace of its own (unshare -n), so nothing leaves the machine.
PUBLIC = os.environ.get("PREVIEWD_WEB_TEST_ADDRESS")

STACK = None


def setUpModule():
    global STACK
    STACK = Stack()
    STACK.start()


def tearDownModule():
    if STACK:
        STACK.stop()


def cookie_value(set_cookie):
    return set_cookie.split(";", 1)[0].split("=", 1)[1]


class LoopbackTests(unittest.TestCase):
    """previewd-web on 127.0.0.1: no pairing, every other guard."""

    @classmethod
    def setUpClass(cls):
        cls.web = Web(STACK).start()

    @classmethod
    def tearDownClass(cls):
        cls.web.stop()

    def test_page_served_with_security_headers_and_no_cors(self):
        status, headers, body = self.web.request("GET", "/", headers={"Origin": "http://evil.example"})
        self.assertEqual(status, 200)
        self.assertIn(b"app.js", body)
        self.assertIn("default-src 'self'", headers["Content-Security-Policy"])
        self.assertIn("frame-ancestors 'none'", headers["Content-Security-Policy"])
        self.assertIn("media-src 'self' blob:;", headers["Content-Security-Policy"], "Play here's Media Source, and nothing else")
        self.assertEqual(headers["X-Content-Type-Options"], "nosniff")
        self.assertEqual(headers["Referrer-Policy"], "no-referrer")
        self.assertFalse([k for k in headers.keys() if k.lower().startswith("access-control-")])
        # The page's script is native ES modules: each one must come as JavaScript, or it does not run.
        modules = re.findall(r"from '\./modules/([a-z0-9]+\.js)'", self.web.request("GET", "/app.js")[2].decode())
        preloaded = re.findall(r'<link rel="modulepreload" href="/modules/([a-z0-9]+\.js)">', body.decode())
        self.assertLessEqual(set(modules), set(preloaded), "every module app.js imports is asked for at once")
        modules = sorted(set(modules) | set(preloaded))
        self.assertIn("link.js", modules)
        self.assertIn("playhere.js", modules)
        self.assertIn("mp4.js", modules)
        for path, kind in (("/app.js", "javascript"), ("/app.css", "text/css"), ("/manifest.webmanifest", "manifest"),
                           ("/icon.svg", "svg"), ("/icon-192.png", "png"), ("/icon-512.png", "png"),
                           *((f"/modules/{name}", "text/javascript") for name in modules)):
            status, headers, _ = self.web.request("GET", path)
            self.assertEqual(status, 200, path)
            self.assertIn(kind, headers["Content-Type"], path)

    def test_foreign_host_refused(self):
        # DNS rebinding: evil.example resolved to 127.0.0.1; the browser sends Host: evil.example.
        for method, path in (("GET", "/"), ("GET", "/app.js")):
            status, headers, _ = self.web.request(method, path, headers={"Host": "evil.example"})
            self.assertEqual(status, 421, path)
            self.assertIn("Content-Security-Policy", headers)
        status, _, _ = self.web.request("POST", "/api", '{"cmd":"status"}',
                                        {"Host": f"evil.example:{self.web.port}", "Origin": f"http://evil.example:{self.web.port}",
                                         "Content-Type": "application/json"})
        self.assertEqual(status, 421)
        with self.assertRaises(WebSocketRefused) as refused:
            WebSocket(self.web, host="evil.example", origin="http://evil.example")
        self.assertEqual(refused.exception.status, 421)

    def test_another_sites_fetch_refused(self):
        # What Chromium says of a picture or script another site's page asks for: refused, so it
        # cannot even learn which queue ids exist; the page's own and a typed address pass.
        for site in ("cross-site", "same-site"):
            status, _, _ = self.web.request("GET", "/art/item/1", headers={"Sec-Fetch-Site": site})
            self.assertEqual(status, 403, site)
        for site in ("same-origin", "none"):
            self.assertEqual(self.web.request("GET", "/", headers={"Sec-Fetch-Site": site})[0], 200, site)
        self.assertEqual(self.web.request("GET", "/pair?token=x", headers={"Sec-Fetch-Site": "cross-site"})[0], 403,
                         "a pairing link from anywhere is judged by its token alone")

    def test_localhost_name_allowed(self):
        status, _, _ = self.web.request("GET", "/", headers={"Host": f"localhost:{self.web.port}"})
        self.assertEqual(status, 200)

    def test_websocket_from_foreign_origin_refused(self):
        for origin in ("http://evil.example", f"https://{self.web.address}", "null", False):
            with self.assertRaises(WebSocketRefused, msg=str(origin)) as refused:
                WebSocket(self.web, origin=origin)
            self.assertEqual(refused.exception.status, 403, origin)

    def test_post_from_foreign_origin_or_without_json_refused(self):
        status, _, _ = self.web.request("POST", "/api", '{"cmd":"pause"}',
                                        {"Origin": "http://evil.example", "Content-Type": "application/json"})
        self.assertEqual(status, 403)
        status, _, _ = self.web.request("POST", "/api", '{"cmd":"pause"}', {"Content-Type": "application/json"})
        self.assertEqual(status, 403, "no Origin at all")
        # A form post is what a cross-site <form> can send without a preflight.
        for kind in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"):
            status, _, _ = self.web.request("POST", "/api", 'cmd=pause', {"Origin": self.web.origin, "Content-Type": kind})
            self.assertEqual(status, 415, kind)

    def test_body_bounded(self):
        big = json.dumps({"id": 1, "cmd": "status", "args": {"pad": "x" * (70 * 1024)}})
        status, _, _ = self.web.request("POST", "/api", big, {"Origin": self.web.origin, "Content-Type": "application/json"})
        self.assertEqual(status, 413)

    def test_request_too_long_for_previewd_refused_and_the_link_kept(self):
        # Under the 64 KiB body bound, but past previewd's 64 KiB line once re-encoded (9e15 is written
        # out in 16 digits): previewd would close the one connection every page shares.
        ws = WebSocket(self.web)
        try:
            self.assertEqual(ws.receive(), {"event": "daemon", "state": "up"})
            body = '{"id": 7, "cmd": "status", "args": {"pad": [' + ",".join(["9e15"] * 12000) + "]}}"
            self.assertLess(len(body), 64 * 1024)
            status, _, text = self.web.request("POST", "/api", body, {"Origin": self.web.origin, "Content-Type": "application/json"})
            self.assertEqual(status, 200)
            answer = json.loads(text)
            self.assertEqual(answer["error"]["code"], "bad-request", answer)
            self.assertEqual(self.web.api({"id": 8, "cmd": "status"})[1]["ok"], True, "previewd still answers")
            ws.send({"id": 9, "cmd": "status"})
            m = ws.receive_until(lambda m: "ok" in m or m.get("event") == "daemon")
            self.assertEqual(m.get("id"), 9, f"no daemon down on the open page: {m}")
        finally:
            ws.close()

    def test_api_answers_as_previewd_does(self):
        status, answer = self.web.api({"id": 41, "cmd": "status"})
        self.assertEqual(status, 200)
        self.assertEqual(answer["id"], 41)
        self.assertTrue(answer["ok"])
        self.assertIn("state", answer["result"])

    def test_search_without_queue_leaves_queue_alone(self):
        _, before = self.web.api({"id": 1, "cmd": "queue"})
        _, answer = self.web.api({"id": 2, "cmd": "search", "args": {"term": "sine", "queue": False}})
        self.assertTrue(answer["ok"], answer)
        results = answer["result"]["results"] if isinstance(answer["result"], dict) else answer["result"]
        self.assertTrue(results, answer)
        _, after = self.web.api({"id": 3, "cmd": "queue"})
        self.assertEqual(before["result"], after["result"])

    def test_commands_outside_the_allow_list_refused(self):
        for cmd in ("memory", "subscribe", "forget", "artwork", "hello"):
            status, answer = self.web.api({"id": 5, "cmd": cmd})
            self.assertEqual(status, 200)
            self.assertFalse(answer["ok"], cmd)
            self.assertEqual(answer["error"]["code"], "bad-request", cmd)
            self.assertIn("not allowed", answer["error"]["message"])
            self.assertEqual(answer["id"], 5)
        status, _, body = self.web.request("POST", "/api", "[1,2]", {"Origin": self.web.origin, "Content-Type": "application/json"})
        self.assertEqual(status, 400)
        self.assertEqual(json.loads(body)["error"]["code"], "bad-request")

    def test_websocket_relays_answers_and_events(self):
        ws = WebSocket(self.web)
        try:
            self.assertEqual(ws.receive(), {"event": "daemon", "state": "up"})
            ws.send({"id": 7, "cmd": "volume", "args": {"level": 33}})
            event = ws.receive_until(lambda m: m.get("event") == "volume")
            self.assertEqual(event["volume"], 33)
            answer = ws.answer(7)
            self.assertTrue(answer["ok"], answer)
            # A change made elsewhere (another client of previewd) reaches the page too.
            self.web.api({"id": 8, "cmd": "volume", "args": {"level": 44}})
            self.assertEqual(ws.receive_until(lambda m: m.get("event") == "volume")["volume"], 44)
            ws.send({"id": 9, "cmd": "memory"})
            self.assertEqual(ws.answer(9)["error"]["code"], "bad-request")
        finally:
            ws.close()

    def test_websocket_message_over_64_kib_closes(self):
        ws = WebSocket(self.web)
        try:
            ws.receive()
            ws.send_text(json.dumps({"id": 1, "cmd": "status", "args": {"pad": "x" * (65 * 1024)}}))
            while ws.receive() is not None:
                pass
            self.assertIn(ws.closed, (1009, 1002, None))
        finally:
            ws.close()
        # The server is still there for everyone else.
        self.assertEqual(self.web.api({"id": 1, "cmd": "status"})[0], 200)

    def test_websocket_requests_rate_bounded(self):
        ws = WebSocket(self.web)
        try:
            ws.receive()
            for i in range(100):
                ws.send({"id": 1000 + i, "cmd": "status"})
            codes = {}
            for _ in range(100):
                m = ws.receive_until(lambda m: "ok" in m)
                codes[m["id"]] = "ok" if m["ok"] else m["error"]["code"]
            self.assertEqual(len(codes), 100, "every request answered")
            self.assertIn("rate-limited", codes.values())
            self.assertIn("ok", codes.values())
        finally:
            ws.close()

    def test_searches_coalesce_last_query_wins(self):
        ws = WebSocket(self.web)
        try:
            ws.receive()
            terms = ["s", "si", "sin", "sine", "sine w"]
            for i, term in enumerate(terms):
                ws.send({"id": 200 + i, "cmd": "search", "args": {"term": term, "queue": False}})
            answers = {}
            while len(answers) < len(terms):
                m = ws.receive_until(lambda m: "ok" in m and 200 <= m.get("id", 0) < 300)
                answers[m["id"]] = m
            self.assertTrue(answers[204]["ok"], answers[204])
            superseded = [i for i, m in answers.items() if not m["ok"] and m["error"]["code"] == "superseded"]
            self.assertTrue(superseded, "the waiting searches were replaced by the newest")
            self.assertNotIn(204, superseded)
        finally:
            ws.close()

    def test_websockets_bounded(self):
        sockets = []
        try:
            for _ in range(32):
                sockets.append(WebSocket(self.web))
            with self.assertRaises(WebSocketRefused) as refused:
                WebSocket(self.web)
            self.assertEqual(refused.exception.status, 503)
        finally:
            for ws in sockets:
                ws.close()

    def test_artwork_routes(self):
        _, answer = self.web.api({"id": 1, "cmd": "search", "args": {"term": "sine", "queue": False}})
        self.assertTrue(answer["ok"], answer)
        tracks = answer["result"]["results"] if isinstance(answer["result"], dict) else answer["result"]
        with_art = [t for t in tracks if "quadrants" in t.get("artworkUrl100", "")]
        self.assertTrue(with_art)
        status, headers, body = self.web.request("GET", f"/art/track/{with_art[0]['trackId']}?small=1")
        self.assertEqual(status, 200, body[:200])
        self.assertEqual(headers["Content-Type"], "image/jpeg")
        self.assertTrue(body.startswith(b"\xff\xd8"))
        self.assertEqual(headers["Cache-Control"], "private, max-age=86400")
        status, _, _ = self.web.request("GET", "/art/track/999999999")
        self.assertEqual(status, 404)
        status, _, _ = self.web.request("GET", "/art/item/987654")
        self.assertEqual(status, 404)

    def test_play_here_claims_take_over_and_late_ends_change_nothing(self):
        """`playhere` through the page's API: a second page takes over, a page without the claim is
        refused, an `ended` naming an item previewd has left changes nothing (previewd's own rules)."""
        def call(cmd, args=None):
            body = {"id": 1, "cmd": cmd}
            if args is not None:
                body["args"] = args
            return self.web.api(body)[1]
        self.assertTrue(call("search", {"term": "sine", "queue": True, "play": True})["ok"])
        items = call("queue")["result"]["items"]
        current = call("status")["result"]["id"]
        other = next(i["id"] for i in items if i["id"] != current)
        claimed = call("playhere", {"page": "page-a", "on": True})
        self.assertEqual(claimed["result"]["playHere"], {"page": "page-a", "hereOnly": True})
        self.assertTrue(call("playhere", {"page": "page-a", "ended": other})["ok"])
        self.assertEqual(call("status")["result"]["id"], current, "an end of an item previewd left changes nothing")
        self.assertTrue(call("playhere", {"page": "page-a", "failed": other})["ok"])
        self.assertEqual(call("status")["result"]["id"], current, "nor does a failure of one")
        # The page could not play the current item (its audio failed at once): previewd marks it and goes on.
        self.assertTrue(call("playhere", {"page": "page-a", "failed": current})["ok"])
        failed, current = current, call("status")["result"]["id"]
        self.assertNotEqual(current, failed, "a failure in the page moves previewd on")
        self.assertTrue(next(i for i in call("queue")["result"]["items"] if i["id"] == failed).get("failed"), "marked failed")
        self.assertEqual(call("playhere", {"page": "page-b", "ended": current})["error"]["code"], "rejected", "no claim, no say")
        self.assertEqual(call("playhere", {"page": "page-b", "on": True, "hereOnly": False})["result"]["playHere"],
                         {"page": "page-b", "hereOnly": False}, "a second page takes over")
        self.assertEqual(call("playhere", {"page": "page-a", "id": current, "positionMs": 1000})["error"]["code"], "rejected")
        self.assertEqual(call("playhere", {"page": "page-a", "on": False})["result"]["playHere"]["page"], "page-b",
                         "the page that lost the claim gives nothing back")
        self.assertIsNone(call("playhere", {"page": "page-b", "on": False})["result"]["playHere"])
        call("clear")

    def test_audio_path_answers_byte_ranges(self):
        """`/audio/item/{id}`: previewd's own bytes of a queue item's preview, with RFC 9110's ranges."""
        _, answer = self.web.api({"id": 1, "cmd": "search", "args": {"term": "sine", "queue": True, "play": False}})
        self.assertTrue(answer["ok"], answer)
        _, answer = self.web.api({"id": 2, "cmd": "queue"})
        item = answer["result"]["items"][0]
        with urllib.request.urlopen(item["track"]["previewUrl"], timeout=30) as original:
            whole = original.read()
        size = len(whole)
        start = size * 2 // 3   # past the first 64 KiB chunk when the preview is larger
        path = f"/audio/item/{item['id']}"
        status, headers, body = self.web.request("GET", path)
        self.assertEqual((status, headers["Content-Type"], headers["Accept-Ranges"]), (200, "audio/mp4", "bytes"))
        self.assertEqual(body, whole, "previewd's bytes, whole")
        # (Range, status, Content-Range, bytes): WebKit's first probe, an open end, a suffix, past the end,
        # several ranges and malformed ones (answered whole, as RFC 9110 §14.2 allows), another unit.
        cases = [
            ("bytes=0-1", 206, f"bytes 0-1/{size}", whole[:2]),
            (f"bytes={start}-", 206, f"bytes {start}-{size - 1}/{size}", whole[start:]),
            ("bytes=-500", 206, f"bytes {size - 500}-{size - 1}/{size}", whole[-500:]),
            (f"bytes=100-{size + 99}", 206, f"bytes 100-{size - 1}/{size}", whole[100:]),
            (f"bytes={size}-", 416, f"bytes */{size}", b""),
            ("bytes=0-1,5-9", 200, None, whole),
            ("bytes=9-5", 200, None, whole),
            ("bytes=abc", 200, None, whole),
            ("items=0-1", 200, None, whole),
        ]
        for header, expected, content_range, content in cases:
            status, headers, body = self.web.request("GET", path, headers={"Range": header})
            self.assertEqual(status, expected, header)
            self.assertEqual(headers.get("Content-Range"), content_range, header)
            if expected != 416:
                self.assertEqual(body, content, header)
                self.assertEqual(int(headers["Content-Length"]), len(content), header)
        status, _, _ = self.web.request("GET", "/audio/item/987654")
        self.assertEqual(status, 404, "no such queue item")


class HostNameTests(unittest.TestCase):
    """The names previewd-web answers to besides its addresses: the machine's, NAME.local, --allow-host."""

    def test_allowed_names(self):
        web = Web(STACK, extra=["--allow-host", "hifi.home.arpa"]).start()
        try:
            name = socket.gethostname().lower()
            hosts = [f"hifi.home.arpa:{web.port}", f"{name}:{web.port}", f"LOCALHOST:{web.port}"]
            if "." not in name:
                hosts.append(f"{name}.local:{web.port}")
            for host in hosts:
                self.assertEqual(web.request("GET", "/", headers={"Host": host})[0], 200, host)
            for host in ("hifi.home.arpa", f"hifi.home.arpa:{web.port + 1}", f"evil.hifi.home.arpa:{web.port}"):
                self.assertEqual(web.request("GET", "/", headers={"Host": host})[0], 421, host)
            headers = {"Host": f"hifi.home.arpa:{web.port}", "Content-Type": "application/json"}
            status, _, _ = web.request("POST", "/api", '{"cmd":"status"}', dict(headers, Origin=f"http://hifi.home.arpa:{web.port}"))
            self.assertEqual(status, 200)
            status, _, _ = web.request("POST", "/api", '{"cmd":"status"}', dict(headers, Origin=f"http://hifi.home.arpa.evil.example:{web.port}"))
            self.assertEqual(status, 403)
        finally:
            web.stop()


class ConnectionBoundTests(unittest.TestCase):
    def test_connections_bounded(self):
        web = Web(STACK).start()
        try:
            assert_connections_bounded(self, web, 128)
        finally:
            web.stop()


class DaemonRestartTests(unittest.TestCase):
    """previewd going away and coming back, as a page sees it."""

    def test_daemon_down_then_up(self):
        web = Web(STACK).start()
        ws = WebSocket(web)
        try:
            ws.receive_until(lambda m: m == {"event": "daemon", "state": "up"})
            STACK.kill_previewd()
            ws.receive_until(lambda m: m == {"event": "daemon", "state": "down"})
            status, answer = web.api({"id": 3, "cmd": "status"})
            self.assertEqual(answer["error"]["code"], "unavailable")
            self.assertEqual(answer["error"]["message"], "previewd is not running")
            ws.send({"id": 4, "cmd": "status"})
            self.assertEqual(ws.answer(4)["error"]["code"], "unavailable")
            STACK.start_previewd()
            ws.receive_until(lambda m: m == {"event": "daemon", "state": "up"})
            ws.send({"id": 5, "cmd": "status"})
            self.assertTrue(ws.answer(5)["ok"])
            self.assertTrue(web.api({"id": 6, "cmd": "status"})[1]["ok"])
        finally:
            ws.close()
            web.stop()


class DaemonIdentityTests(unittest.TestCase):
    """As previewctl, previewd-web talks only to a previewd of its own user: a socket another user
    listens on gets not a byte (SO_PEERCRED)."""

    @unittest.skipUnless(os.getuid() == 0, "needs root, to listen as another user")
    def test_socket_of_another_user_refused(self):
        folder = tempfile.mkdtemp(dir=STACK.dir)
        os.chmod(folder, 0o755)
        path, log = os.path.join(folder, "previewd.sock"), os.path.join(folder, "heard")
        # Bound as root in a folder of root's, listening as nobody: SO_PEERCRED names who listened.
        impostor = subprocess.Popen([sys.executable, "-c", f"""
import os, socket
s = socket.socket(socket.AF_UNIX)
s.bind({path!r}); os.chmod({path!r}, 0o777)
heard = open({log!r}, "wb", buffering=0)
os.setgid(65534); os.setuid(65534)
s.listen(8)
print("listening", flush=True)
while True:
    c, _ = s.accept()
    c.settimeout(2)
    try:
        data = c.recv(4096)
    except OSError:
        data = b""
    heard.write(b"connection:" + data + b"\\n")
    c.close()
"""], stdout=subprocess.PIPE, text=True)
        try:
            self.assertEqual(impostor.stdout.readline().strip(), "listening")
            web = Web(STACK)
            web.stack = type("S", (), {"socket": path, "env": STACK.env})()
            web.start()
            try:
                ws = WebSocket(web)
                self.assertEqual(ws.receive(), {"event": "daemon", "state": "down"})
                status, answer = web.api({"id": 1, "cmd": "status"})
                self.assertEqual(answer["error"]["code"], "unavailable")
                ws.close()
            finally:
                web.stop()
            with open(log, "rb") as f:
                heard = f.read().splitlines()
            self.assertTrue(heard, "previewd-web tried the socket")
            self.assertEqual(set(heard), {b"connection:"}, "not a byte was sent to the impostor")
        finally:
            impostor.kill()
            impostor.wait()
            impostor.stdout.close()


class SocketActivationTests(unittest.TestCase):
    """previewd-web started by the first connection to a socket made for it, as previewd-web.socket
    does (systemd-socket-activate: LISTEN_FDS, LISTEN_PID)."""

    def test_serves_the_socket_it_was_handed(self):
        web = Web(STACK)
        proc = subprocess.Popen(["systemd-socket-activate", "-l", web.address] + web.command(), env=STACK.env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            self.assertIn("Listening on", proc.stderr.readline())
            status, headers, body = web.request("GET", "/")
            self.assertEqual(status, 200)
            self.assertIn(b"app.js", body)
            self.assertEqual(web.request("GET", "/", headers={"Host": "evil.example"})[0], 421)
            ws = WebSocket(web)
            self.assertEqual(ws.receive(), {"event": "daemon", "state": "up"})
            ws.close()
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()
            proc.stderr.close()


class TLSTests(unittest.TestCase):
    """--tls-cert/--tls-key with a certificate of the test's own: HTTPS, https Origins, a Secure cookie."""

    def test_https_with_the_users_certificate(self):
        folder = tempfile.mkdtemp(dir=STACK.dir)
        cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT)
        web = Web(STACK, tls=(cert, key))
        paired = web.run("--pair", "--listen", web.address, "--tls-cert", cert, "--tls-key", key)
        url = re.search(r"^Open (\S+)$", paired.stdout, re.M).group(1)
        self.assertTrue(url.startswith(f"https://{web.address}/pair?token="), url)
        web.start()
        try:
            status, headers, body = web.request("GET", "/")
            self.assertEqual(status, 200)
            self.assertIn("default-src 'self'", headers["Content-Security-Policy"])
            status, answer = web.api({"id": 1, "cmd": "status"})
            self.assertEqual(status, 200)
            self.assertTrue(answer["ok"])
            self.assertEqual(web.api({"id": 2, "cmd": "status"}, origin=f"http://{web.address}")[0], 403)
            status, headers, _ = web.request("GET", url.split(web.address, 1)[1])
            self.assertEqual(status, 303)
            attributes = [a.strip().lower() for a in headers["Set-Cookie"].split(";")[1:]]
            self.assertIn("secure", attributes)
            self.assertIn("httponly", attributes)
        finally:
            web.stop()


class PairingTests(unittest.TestCase):
    """Pairing: the token file, the QR code, the cookie, revoking; and previewd-web on an address that
    is not loopback, where every request needs the cookie."""

    def test_non_loopback_listen_without_token_refused(self):
        web = Web(STACK, host="127.0.0.1")
        result = subprocess.run(web.command("--listen", "198.51.100.7:8765"), env=STACK.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
        self.assertEqual(result.returncode, 2)
        self.assertIn("--pair", result.stderr)

    def test_pair_makes_private_token_and_qr_decodes_to_url(self):
        web = Web(STACK, host="127.0.0.1")
        result = web.run("--pair", "--listen", "198.51.100.7:8765")
        self.assertEqual(result.returncode, 0, result.stderr)
        url = re.search(r"^Open (\S+)$", result.stdout, re.M).group(1)
        token_path = os.path.join(web.config_dir, "web-token")
        with open(token_path) as f:
            token = f.read().strip()
        self.assertEqual(url, f"http://198.51.100.7:8765/pair?token={token}")
        self.assertEqual(len(token), 43)  # 32 bytes in base64url, no padding
        self.assertEqual(os.stat(token_path).st_mode & 0o777, 0o600)
        self.assertEqual(os.stat(web.config_dir).st_mode & 0o777, 0o700)
        self.assertEqual(decode_qr(result.stdout), url)
        # Asked again, the same token; --revoke makes a new one.
        self.assertIn(token, web.run("--pair", "--listen", "198.51.100.7:8765").stdout)
        revoked = web.run("--pair", "--revoke", "--listen", "198.51.100.7:8765")
        self.assertNotIn(token, revoked.stdout)
        self.assertEqual(decode_qr(revoked.stdout), re.search(r"^Open (\S+)$", revoked.stdout, re.M).group(1))

    @unittest.skipUnless(PUBLIC, "needs a non-loopback address of the test's own (Web/Tests/run gives one as root)")
    def test_one_device_cannot_take_every_place(self):
        web = Web(STACK, host=PUBLIC)
        self.assertEqual(web.run("--pair", "--listen", web.address).returncode, 0)
        web.start()
        try:
            assert_connections_bounded(self, web, 32)
        finally:
            web.stop()

    @unittest.skipUnless(PUBLIC, "needs a network namespace of the test's own to add an address in (Web/Tests/run, as root)")
    def test_wildcard_listener_answers_to_an_address_that_came_later(self):
        web = Web(STACK, host="0.0.0.0")
        self.assertEqual(web.run("--pair", "--listen", web.address, "--url-host", PUBLIC).returncode, 0)
        web.start()
        try:
            later = "198.51.100.9"   # as a DHCP lease or a network that came up after the start
            subprocess.run(["ip", "addr", "add", later + "/32", "dev", "lo"], check=True)
            try:
                status, _, _ = web.request("GET", "/manifest.webmanifest", headers={"Host": f"{later}:{web.port}"})
                self.assertEqual(status, 200)
                status, _, _ = web.request("GET", "/manifest.webmanifest", headers={"Host": f"198.51.100.10:{web.port}"})
                self.assertEqual(status, 421, "an address the machine does not have")
            finally:
                subprocess.run(["ip", "addr", "del", later + "/32", "dev", "lo"], check=True)
        finally:
            web.stop()

    def test_token_folder_others_may_write_refused_and_a_relative_one_made(self):
        shared = os.path.join(STACK.dir, "shared")
        os.makedirs(shared)
        os.chmod(shared, 0o777)
        result = Web(STACK, host="127.0.0.1", config_dir=shared).run("--pair", "--listen", "198.51.100.7:8765")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("not this user's alone", result.stderr)
        self.assertFalse(os.listdir(shared), "no token left in it")
        self.assertEqual(os.stat(shared).st_mode & 0o777, 0o777, "a folder it did not make keeps its mode")
        web = Web(STACK, host="127.0.0.1", config_dir="relative/config")
        made = subprocess.run(web.command("--pair", "--listen", "198.51.100.7:8765"), cwd=STACK.dir, env=STACK.env,
                              capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(made.returncode, 0, made.stderr)
        token = os.path.join(STACK.dir, "relative", "config", "web-token")
        self.assertEqual(os.stat(token).st_mode & 0o777, 0o600)
        self.assertEqual(os.stat(os.path.dirname(token)).st_mode & 0o777, 0o700)

    @unittest.skipUnless(PUBLIC, "needs a non-loopback address of the test's own (Web/Tests/run gives one as root)")
    def test_non_loopback_needs_pairing(self):
        web = Web(STACK, host=PUBLIC)
        paired = web.run("--pair", "--listen", web.address)
        self.assertEqual(paired.returncode, 0, paired.stderr)
        url = re.search(r"^Open (\S+)$", paired.stdout, re.M).group(1)
        token = url.split("token=", 1)[1]
        web.start()
        try:
            # Without the cookie: refused, the page says how to pair; the home-screen files stay open.
            status, answer = web.api({"id": 1, "cmd": "status"})
            self.assertEqual(status, 401)
            status, headers, body = web.request("GET", "/")
            self.assertEqual(status, 401)
            self.assertIn(b"--pair", body)
            self.assertEqual(web.request("GET", "/app.js")[0], 401)
            self.assertEqual(web.request("GET", "/modules/link.js")[0], 401)
            self.assertEqual(web.request("GET", "/audio/item/1", headers={"Range": "bytes=0-1"})[0], 401, "unpaired: no audio")
            self.assertEqual(web.request("GET", "/manifest.webmanifest")[0], 200)
            self.assertEqual(web.request("GET", "/icon-192.png")[0], 200)
            with self.assertRaises(WebSocketRefused) as refused:
                WebSocket(web)
            self.assertEqual(refused.exception.status, 401)
            # A wrong token pairs nobody.
            self.assertEqual(web.request("GET", "/pair?token=" + "A" * 43)[0], 403)
            # The pairing address sets the cookie: HttpOnly, SameSite=Strict, and sends the phone to /.
            status, headers, _ = web.request("GET", url.split(web.address, 1)[1])
            self.assertEqual(status, 303)
            self.assertEqual(headers["Location"], "/")
            set_cookie = headers["Set-Cookie"]
            self.assertEqual(cookie_value(set_cookie), token)
            attributes = [a.strip().lower() for a in set_cookie.split(";")[1:]]
            self.assertIn("httponly", attributes)
            self.assertIn("samesite=strict", attributes)
            self.assertIn("path=/", attributes)
            # With the cookie: the page, the API and the WebSocket work.
            self.assertEqual(web.request("GET", "/", headers={"Cookie": f"previewd_web={token}"})[0], 200)
            status, answer = web.api({"id": 2, "cmd": "status"}, cookie=token)
            self.assertEqual(status, 200)
            self.assertTrue(answer["ok"])
            ws = WebSocket(web, cookie=token)
            self.assertEqual(ws.receive(), {"event": "daemon", "state": "up"})
            # Still every other guard: a form post with the cookie is refused.
            status, _, _ = web.request("POST", "/api", "cmd=pause", {"Origin": web.origin, "Cookie": f"previewd_web={token}",
                                                                   "Content-Type": "application/x-www-form-urlencoded"})
            self.assertEqual(status, 415)
            # Revoked: the old cookie stops working at once, the open page too.
            revoked = web.run("--pair", "--revoke", "--listen", web.address)
            new_token = re.search(r"token=(\S+)", revoked.stdout).group(1)
            self.assertNotEqual(new_token, token)
            self.assertEqual(web.api({"id": 3, "cmd": "status"}, cookie=token)[0], 401)
            ws.send({"id": 4, "cmd": "status"})
            m = ws.receive_until(lambda m: "ok" in m)
            self.assertEqual(m["error"]["code"], "unpaired")
            self.assertIsNone(ws.receive())
            ws.close()
            status, answer = web.api({"id": 5, "cmd": "status"}, cookie=new_token)
            self.assertEqual(status, 200)
            self.assertTrue(answer["ok"])
        finally:
            web.stop()


class PairingCodeTests(unittest.TestCase):
    """Pairing by a typed code (a Home Screen copy cannot open the pairing address): short-lived,
    single use, never the token, five wrong tries lock it for a minute; every guard still in front."""

    def setUp(self):
        self.web = Web(STACK, host=PUBLIC or "127.0.0.1")
        self.assertEqual(self.web.run("--pair", "--listen", self.web.address).returncode, 0)
        self.web.start()

    def tearDown(self):
        self.web.stop()

    def new_code(self):
        """A fresh code from `--pair`, as the listener reads it in the terminal."""
        result = self.web.run("--pair", "--listen", self.web.address)
        self.assertEqual(result.returncode, 0, result.stderr)
        return re.search(r"within 5 minutes: (\d{6})$", result.stdout, re.M).group(1)

    def send(self, code, headers=None):
        """POST /pair/code as the "Pair this device" page sends it (or with `headers` instead); status, headers, JSON."""
        sent = {"Origin": self.web.origin, "Content-Type": "application/json"} if headers is None else headers
        status, answer_headers, body = self.web.request("POST", "/pair/code", json.dumps({"code": code}), sent)
        try:
            return status, answer_headers, json.loads(body)
        except ValueError:
            return status, answer_headers, body

    def test_code_is_private_short_lived_and_pairs_once(self):
        code = self.new_code()
        path = os.path.join(self.web.config_dir, "web-pair-code")
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        written, expiry = open(path).read().split()
        self.assertEqual(written, code)
        self.assertTrue(0 < int(expiry) - time.time() <= 300, "it lives 5 minutes")
        token = open(os.path.join(self.web.config_dir, "web-token")).read().strip()
        status, headers, answer = self.send(code)
        self.assertEqual((status, answer), (200, {"paired": True}))
        set_cookie = headers["Set-Cookie"]
        self.assertEqual(cookie_value(set_cookie), token, "the cookie is the token; the code never was")
        self.assertIn("samesite=strict", set_cookie.lower())
        self.assertIn("httponly", set_cookie.lower())
        self.assertEqual(self.web.api({"id": 1, "cmd": "status"}, cookie=token)[0], 200)
        self.assertFalse(os.path.exists(path), "spent")
        status, _, answer = self.send(code)
        self.assertEqual((status, answer["error"]), (403, "wrong-code"), "a code pairs once")

    def test_expired_code_and_the_token_itself_refused(self):
        code = self.new_code()
        path = os.path.join(self.web.config_dir, "web-pair-code")
        with open(path, "w") as f:
            f.write(f"{code} {int(time.time()) - 1}\n")
        self.assertEqual(self.send(code)[0], 403, "expired")
        with open(path, "w") as f:
            f.write(f"{code} {int(time.time()) + 3600}\n")
        self.assertEqual(self.send(code)[0], 403, "an end further than a code's life is not believed")
        self.new_code()
        token = open(os.path.join(self.web.config_dir, "web-token")).read().strip()
        self.assertEqual(self.send(token)[0], 403, "the token is not a code")

    def test_guards_in_front_of_the_code(self):
        code = self.new_code()
        wrong_host = {"Host": "evil.example:80", "Origin": self.web.origin, "Content-Type": "application/json"}
        self.assertEqual(self.send(code, wrong_host)[0], 421)
        self.assertEqual(self.send(code, {"Content-Type": "application/json"})[0], 403, "no Origin")
        self.assertEqual(self.send(code, {"Origin": "http://evil.example", "Content-Type": "application/json"})[0], 403)
        self.assertEqual(self.send(code, {"Origin": self.web.origin, "Content-Type": "application/json",
                                          "Sec-Fetch-Site": "cross-site"})[0], 403, "another site's fetch")
        status, _, _ = self.web.request("POST", "/pair/code", f"code={code}",
                                        {"Origin": self.web.origin, "Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 415, "a form post")
        # None of those was a try: the code still pairs.
        self.assertEqual(self.send(code)[0], 200)

    def test_five_wrong_codes_lock_pairing_for_a_minute(self):
        # While no code is valid, tries count for nothing (nobody can lock pairing ahead of a code).
        os.unlink(os.path.join(self.web.config_dir, "web-pair-code"))
        for _ in range(6):
            status, _, answer = self.send("123456")
            self.assertEqual((status, answer["triesLeft"]), (403, 5))
        code = self.new_code()
        wrong = f"{(int(code) + 1) % 1000000:06d}"
        for left in (4, 3, 2, 1):
            status, _, answer = self.send(wrong)
            self.assertEqual((status, answer["triesLeft"]), (403, left))
        status, headers, answer = self.send(wrong)
        self.assertEqual((status, answer["error"]), (429, "locked"), "the fifth wrong code locks")
        self.assertEqual(headers["Retry-After"], "60")
        # Locked: even the right code pairs nobody, from any device, until the minute is over.
        status, headers, answer = self.send(code)
        self.assertEqual(status, 429)
        self.assertTrue(0 < int(headers["Retry-After"]) <= 60)
        self.assertNotIn("Set-Cookie", headers)
        # The address with the token still pairs (the QR code is not locked out).
        token = open(os.path.join(self.web.config_dir, "web-token")).read().strip()
        self.assertEqual(self.web.request("GET", f"/pair?token={token}")[0], 303)

    @unittest.skipUnless(PUBLIC, "needs a non-loopback address of the test's own (Web/Tests/run gives one as root)")
    def test_pairing_page_takes_a_code(self):
        status, headers, body = self.web.request("GET", "/")
        self.assertEqual(status, 401)
        self.assertIn(b'id="pair-code"', body)
        self.assertEqual(headers["Cache-Control"], "no-store")
        for path in ("/pair.js", "/app.css"):
            self.assertEqual(self.web.request("GET", path)[0], 200, f"{path} is open: the pairing page needs it")
        self.assertEqual(self.web.request("GET", "/app.js")[0], 401)


def assert_connections_bounded(test, web, limit):
    """`limit` connections to `web` are open and served (a request on the last is answered); one more
    is closed unanswered."""
    held = []
    try:
        for _ in range(limit):
            held.append(socket.create_connection((web.host, web.port), timeout=TIMEOUT))
        held[-1].sendall(f"GET /icon.svg HTTP/1.1\r\nHost: {web.address}\r\n\r\n".encode())
        test.assertTrue(held[-1].recv(100).startswith(b"HTTP/1.1 200"), f"connection {limit} is served")
        extra = socket.create_connection((web.host, web.port), timeout=TIMEOUT)
        extra.sendall(f"GET /icon.svg HTTP/1.1\r\nHost: {web.address}\r\n\r\n".encode())
        try:
            test.assertEqual(extra.recv(100), b"", f"connection {limit + 1} is closed unanswered")
        except ConnectionResetError:
            pass
        extra.close()
    finally:
        for s in held:
            s.close()


def decode_qr(output):
    """The QR code previewd-web drew (light modules as blocks) turned back into a PGM picture and
    read by zbarimg."""
    rows = []
    for line in output.splitlines():
        if line and set(line) <= set("█▀▄ ") and any(c != " " for c in line):
            top = [255 if c in "█▀" else 0 for c in line]
            bottom = [255 if c in "█▄" else 0 for c in line]
            rows += [top, bottom]
    if not rows:
        raise AssertionError("no QR code in the output")
    scale = 4
    width = max(len(r) for r in rows)
    pixels = bytearray()
    for row in rows:
        row = row + [255] * (width - len(row))
        line = bytes(v for v in row for _ in range(scale))
        pixels += line * scale
    with tempfile.NamedTemporaryFile(suffix=".pgm", delete=False) as f:
        f.write(f"P5 {width * scale} {len(rows) * scale} 255\n".encode() + bytes(pixels))
        path = f.name
    try:
        result = subprocess.run(["zbarimg", "--raw", "-q", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, timeout=TIMEOUT)
        if result.returncode != 0:
            raise AssertionError(f"zbarimg could not read the QR code: {result.stderr}")
        return result.stdout.strip()
    finally:
        os.unlink(path)


if __name__ == "__main__":
    unittest.main()
