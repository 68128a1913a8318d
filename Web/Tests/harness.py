"""Real processes for previewd-web's tests, each thing written once: the release binaries, bounded
waits, a child process with its log kept for failure messages, a private PulseAudio with a null sink,
the iTunes stand-in, previewd (`Stack`) and previewd-web (`Web`); and a raw WebSocket client (stdlib
only), so a test can send exactly the headers a hostile page or a rebinding attack would. Free ports
and PulseAudio's command line are scripts/benchkit's (the one definition for the Python scripts).
browser_rig.py builds the browser tests' rig on these."""

import base64
import http.client
import json
import os
import select
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
WEB = os.path.dirname(HERE)
ROOT = os.path.dirname(WEB)
sys.path.append(os.path.join(ROOT, "scripts"))
from benchkit.rig import free_port, pulse_command  # noqa: E402 (found through the line above)
FIXTURES = Path(ROOT) / "Tests" / "Fixtures"
TIMEOUT = 20.0  # a bound on every wait, so a broken build fails instead of hanging


class RigError(RuntimeError):
    """A failure of the rig itself (a process that did not start), not of the code under test."""


def bin_dir(folder, variable):
    """The release build's folder: $variable, else `swift build --show-bin-path` in `folder`."""
    if os.environ.get(variable):
        return os.environ[variable]
    out = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"],
                         cwd=folder, stdout=subprocess.PIPE, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def wait_until(predicate, what, process=None):
    """Waits for `predicate` (a hang guard, not a speed check): bounded, and fails at once if `process` died."""
    deadline = time.monotonic() + TIMEOUT
    while not predicate():
        if process and not process.running():
            raise RigError(f"{process.name} exited with status {process.process.returncode} before {what}: {process.said()}")
        if time.monotonic() > deadline:
            raise RigError(f"no {what} within {TIMEOUT} s")
        time.sleep(0.02)


class Process:
    """A child process whose stderr is kept in NAME.log in `folder` for failure messages."""

    def __init__(self, argv, folder, name, env=None, stdout=subprocess.DEVNULL, pass_fds=()):
        self.name = name
        self.log_path = Path(folder) / f"{name}.log"
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=self.log,
                                        pass_fds=pass_fds)

    def first_line(self):
        """The first line on the piped stdout (an address, "serving"), or "" if none came within TIMEOUT."""
        ready, _, _ = select.select([self.process.stdout], [], [], TIMEOUT)
        return self.process.stdout.readline().decode(errors="replace").strip() if ready else ""

    def running(self):
        return self.process.poll() is None

    def stop(self, sig=signal.SIGTERM):
        if self.running():
            self.process.send_signal(sig)
            try:
                self.process.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        if self.process.stdout:
            self.process.stdout.close()
        return self.process.returncode

    def said(self):
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""


class Pulse(Process):
    """A private PulseAudio server with a null sink of its own (never one shared with other tests)."""

    def __init__(self, folder):
        self.folder = Path(folder) / "pulse"
        self.folder.mkdir(parents=True)
        self.socket = self.folder / "native"
        self.server = f"unix:{self.socket}"
        self.sink = "previewd_web_null"
        argv, env = pulse_command(str(self.folder), self.sink, log=f"{self.folder}/pulse.log")
        super().__init__(argv, self.folder, "pulseaudio", env=env)
        wait_until(lambda: self.socket.exists() and subprocess.run(["pactl", "--server", self.server, "info"],
                                                                   capture_output=True).returncode == 0,
                   "PulseAudio answering", self)


class Stack:
    """PulseAudio (a null sink), itunes-standin, previewd: the parts previewd-web talks to, in one temporary folder."""

    def __init__(self, fixtures=None):
        self.dir = tempfile.mkdtemp(prefix="previewd-web-test-")
        self.fixtures = Path(fixtures or FIXTURES)   # the stand-in's catalog.json, previews/ and artwork/
        self.bins = bin_dir(ROOT, "PREVIEWD_BIN_DIR")
        self.socket = os.path.join(self.dir, "run", "previewd.sock")
        os.makedirs(os.path.dirname(self.socket), mode=0o700)
        self.env = dict(os.environ, HOME=self.dir, XDG_RUNTIME_DIR=os.path.join(self.dir, "run"),
                        XDG_CONFIG_HOME=os.path.join(self.dir, "config"), XDG_CACHE_HOME=os.path.join(self.dir, "cache"),
                        XDG_STATE_HOME=os.path.join(self.dir, "state"), XDG_DATA_HOME=os.path.join(self.dir, "data"),
                        DBUS_SESSION_BUS_ADDRESS=f"unix:path={self.dir}/no-bus")
        self.pulse = self.standin = self.previewd = None
        self.api = None

    def start(self):
        try:
            self.pulse = Pulse(self.dir)
            self.env["PULSE_SERVER"] = self.pulse.server
            self.api = self.start_standin()
            self.start_previewd()
        except BaseException:
            self.stop()
            raise
        return self

    def start_standin(self, *faults, port=0):
        """The iTunes stand-in (on `port`, or any), with `faults` as `--fault PATH=SPEC`; returns its base URL."""
        argv = [os.path.join(self.bins, "itunes-standin"), "--catalog", str(self.fixtures / "catalog.json"),
                "--previews", str(self.fixtures / "previews"), "--port", str(port)]
        for fault in faults:
            argv += ["--fault", fault]
        self.standin = Process(argv, self.dir, "standin", env=self.env, stdout=subprocess.PIPE)
        base = self.standin.first_line()
        if not base.startswith("http://"):
            raise RigError(f"the stand-in did not start: {self.standin.said()}")
        return base

    def restart_standin(self, *faults):
        """The stand-in again on the same address (previewd keeps its --api-base), with `faults`."""
        self.standin.stop()
        self.start_standin(*faults, port=int(self.api.rsplit(":", 1)[1]))

    def start_previewd(self):
        """previewd on the stand-in and the null sink; its state in the stack's folder, so a restart gives it back."""
        self.previewd = Process(
            [os.path.join(self.bins, "previewd"), "--socket", self.socket, "--api-base", self.api,
             "--pulse-server", self.pulse.server, "--sink", self.pulse.sink, "--rate-limit", "600",
             "--state-dir", os.path.join(self.dir, "previewd-state")], self.dir, "previewd", env=self.env)
        wait_until(lambda: os.path.exists(self.socket), "previewd's socket", self.previewd)

    def kill_previewd(self):
        """previewd killed outright (SIGKILL: no farewell), its socket left behind as a crash leaves it."""
        self.previewd.stop(signal.SIGKILL)
        if os.path.exists(self.socket):
            os.unlink(self.socket)

    def stop(self):
        for part in (self.previewd, self.standin, self.pulse):
            if part:
                part.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class Web:
    """One previewd-web process, started with `args`, ready once it printed "serving"."""

    def __init__(self, stack, host="127.0.0.1", port=None, config_dir=None, extra=(), tls=None):
        self.binary = os.path.join(bin_dir(WEB, "PREVIEWD_WEB_BIN_DIR"), "previewd-web")
        self.host = host
        self.port = port or free_port(host)
        self.folder = stack.dir
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
        self.proc = Process(self.command("--listen", self.address, *self.extra), self.folder,
                            f"previewd-web-{self.port}", env=self.stack.env, stdout=subprocess.PIPE)
        line = self.proc.first_line()
        if "serving" not in line:
            self.proc.stop(signal.SIGKILL)
            raise RigError(f"previewd-web did not start: {line!r} {self.proc.said()!r}")
        return self

    def run(self, *args):
        """previewd-web with `args` (as --pair), to its end."""
        return subprocess.run(self.command(*args), env=self.stack.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=TIMEOUT)

    def stop(self, sig=signal.SIGTERM):
        if self.proc:
            self.proc.stop(sig)

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
