"""Real processes for previewd-web's tests: a private PulseAudio, the iTunes stand-in, previewd and
previewd-web, each in its own temporary folders; and a raw WebSocket client (stdlib only), so a test
can send exactly the headers a hostile page or a rebinding attack would."""

import base64
import http.client
import json
import os
import select
import shutil
import socket
import ssl
import struct
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WEB = os.path.dirname(HERE)
ROOT = os.path.dirname(WEB)
TIMEOUT = 20.0  # a bound on every wait, so a broken build fails instead of hanging


def bin_dir(folder, variable):
    """The release build's folder: $variable, else `swift build --show-bin-path` in `folder`."""
    if os.environ.get(variable):
        return os.environ[variable]
    out = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"],
                         cwd=folder, stdout=subprocess.PIPE, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def free_port(host="127.0.0.1"):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_for_path(path, proc, what):
    """Waits until `path` exists (previewd's socket); bounded, and fails at once if `proc` died."""
    deadline = time.monotonic() + TIMEOUT
    while not os.path.exists(path):
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with status {proc.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not make {path}")
        time.sleep(0.02)


class Stack:
    """PulseAudio (null sink), itunes-standin, previewd: the parts previewd-web talks to."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="previewd-web-test-")
        self.bins = bin_dir(ROOT, "PREVIEWD_BIN_DIR")
        self.socket = os.path.join(self.dir, "run", "previewd.sock")
        os.makedirs(os.path.dirname(self.socket), mode=0o700)
        self.env = dict(os.environ, HOME=self.dir, XDG_RUNTIME_DIR=os.path.join(self.dir, "run"),
                        XDG_CONFIG_HOME=os.path.join(self.dir, "config"), XDG_CACHE_HOME=os.path.join(self.dir, "cache"),
                        XDG_STATE_HOME=os.path.join(self.dir, "state"), XDG_DATA_HOME=os.path.join(self.dir, "data"))
        self.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        self.pulse = self.standin = self.previewd = None
        self.api = None

    def start(self):
        pulse_dir = os.path.join(self.dir, "pulse")
        os.makedirs(pulse_dir)
        penv = dict(self.env, HOME=pulse_dir, XDG_RUNTIME_DIR=pulse_dir, XDG_CONFIG_HOME=pulse_dir)
        self.pulse_server = f"unix:{pulse_dir}/native"
        self.pulse = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes",
             f"--log-target=file:{pulse_dir}/pulse.log",
             "-L", "module-null-sink sink_name=previewd_null sink_properties=device.description=previewd-null",
             "-L", f"module-native-protocol-unix auth-anonymous=1 socket={pulse_dir}/native"],
            env=penv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_path(f"{pulse_dir}/native", self.pulse, "pulseaudio")
        self.standin = subprocess.Popen(
            [os.path.join(self.bins, "itunes-standin"), "--catalog", os.path.join(ROOT, "Tests/Fixtures/catalog.json"),
             "--previews", os.path.join(ROOT, "Tests/Fixtures/previews")],
            stdout=subprocess.PIPE, text=True, env=self.env)
        self.api = self.standin.stdout.readline().strip()
        if not self.api:
            raise RuntimeError("itunes-standin printed no address")
        self.start_previewd()

    def start_previewd(self):
        with open(os.path.join(self.dir, "previewd.log"), "a") as log:
            self.previewd = subprocess.Popen(
                [os.path.join(self.bins, "previewd"), "--socket", self.socket, "--api-base", self.api,
                 "--pulse-server", self.pulse_server, "--sink", "previewd_null", "--rate-limit", "600",
                 "--log-level", "warning", "--state-dir", os.path.join(self.dir, "previewd-state")],
                env=dict(self.env, PULSE_SERVER=self.pulse_server), stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        wait_for_path(self.socket, self.previewd, "previewd")

    def kill_previewd(self):
        self.previewd.kill()
        self.previewd.wait()
        if os.path.exists(self.socket):
            os.unlink(self.socket)

    def stop(self):
        for proc in (self.previewd, self.standin, self.pulse):
            if proc and proc.poll() is None:
                proc.kill()
                proc.wait()
        if self.standin:
            self.standin.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class Web:
    """One previewd-web process, started with `args`, ready once it printed "serving"."""

    def __init__(self, stack, host="127.0.0.1", port=None, config_dir=None, extra=(), tls=None):
        self.bins = bin_dir(WEB, "PREVIEWD_WEB_BIN_DIR")
        self.binary = os.path.join(self.bins, "previewd-web")
        self.host = host
        self.port = port or free_port(host)
        self.config_dir = config_dir or tempfile.mkdtemp(prefix="config-", dir=stack.dir)
        self.stack = stack
        self.extra = list(extra)
        self.proc = None
        # tls: (certificate, key) PEM files; requests then trust that certificate.
        self.tls = tls
        if tls:
            self.extra += ["--tls-cert", tls[0], "--tls-key", tls[1]]

    @property
    def address(self):
        return f"{self.host}:{self.port}"

    @property
    def origin(self):
        return f"{'https' if self.tls else 'http'}://{self.address}"

    def command(self, *args):
        return [self.binary, "--socket", self.stack.socket, "--config-dir", self.config_dir, *args]

    def start(self):
        self.proc = subprocess.Popen(self.command("--listen", self.address, *self.extra), env=self.stack.env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT)
        line = self.proc.stdout.readline() if ready else ""
        if "serving" not in line:
            self.proc.kill()
            raise RuntimeError(f"previewd-web did not start: {line!r} {self.proc.stderr.read()!r}")
        return self

    def run(self, *args):
        """previewd-web with `args` (as --pair), to its end."""
        return subprocess.run(self.command(*args), env=self.stack.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=TIMEOUT)

    def stop(self):
        if self.proc:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()
            self.proc.stderr.close()

    def request(self, method, path, body=None, headers=None):
        """An HTTP request with exactly `headers` (Host defaults to the listen address)."""
        if self.tls:
            context = ssl.create_default_context(cafile=self.tls[0])
            conn = http.client.HTTPSConnection(self.host, self.port, timeout=TIMEOUT, context=context)
        else:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            headers = dict(headers or {})
            headers.setdefault("Host", self.address)
            if body is not None:
                body = body.encode() if isinstance(body, str) else body
                headers["Content-Length"] = str(len(body))
            for key, value in headers.items():
                conn.putheader(key, value)
            conn.endheaders(body)
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def api(self, request, cookie=None, origin=None):
        headers = {"Origin": origin or self.origin, "Content-Type": "application/json"}
        if cookie:
            headers["Cookie"] = f"previewd_web={cookie}"
        status, _, body = self.request("POST", "/api", json.dumps(request), headers)
        return status, (json.loads(body) if status == 200 else body)


class WebSocketRefused(Exception):
    def __init__(self, status, body):
        super().__init__(f"upgrade refused with {status}")
        self.status = status
        self.body = body


class WebSocket:
    """A WebSocket client on a raw socket: the handshake with chosen headers, masked text frames out,
    frames in (RFC 6455)."""

    def __init__(self, web, origin=None, host=None, cookie=None):
        self.sock = socket.create_connection((web.host, web.port), timeout=TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = ["GET /ws HTTP/1.1", f"Host: {host or web.address}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if origin is not False:
            lines.append(f"Origin: {origin or web.origin}")
        if cookie:
            lines.append(f"Cookie: previewd_web={cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            head += chunk
        head, _, self.buffer = head.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1]) if head else 0
        if status != 101:
            self.sock.close()
            raise WebSocketRefused(status, head + self.buffer)
        self.closed = None

    def send(self, obj):
        self.send_text(json.dumps(obj))

    def send_text(self, text):
        payload = text.encode()
        header = bytes([0x81])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self):
        """The next message as a dict; None once the server closed (its close code in `closed`)."""
        while True:
            try:
                b0, b1 = self._read(2)
            except (ConnectionError, OSError):
                return None
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            opcode = b0 & 0x0F
            if opcode == 0x1:
                return json.loads(payload)
            if opcode == 0x8:
                self.closed = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                return None
            # ping/pong/binary: not used by previewd-web; skipped

    def receive_until(self, predicate, limit=2000):
        """Messages until one matches `predicate` (returned); bounded by count and the socket timeout."""
        for _ in range(limit):
            message = self.receive()
            if message is None:
                raise AssertionError("the WebSocket closed while waiting")
            if predicate(message):
                return message
        raise AssertionError("no matching message")

    def answer(self, request_id):
        return self.receive_until(lambda m: m.get("id") == request_id and "ok" in m)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
