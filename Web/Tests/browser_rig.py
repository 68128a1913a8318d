"""The real parts the browser tests drive: the iTunes stand-in, previewd on a private PulseAudio null sink
whose monitor is recorded (parec), previewctl, and previewd-web. Nothing is stubbed: the page talks to
previewd-web over a real WebSocket, previewd fetches the stand-in's tone previews over real HTTP and
plays them through PulseAudio, and a tone is told from another by its frequency (one per track)."""

import array
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

WEB = Path(__file__).resolve().parents[1]          # Web/
ROOT = WEB.parent                                   # the previewd checkout
FIXTURES = ROOT / "Tests" / "Fixtures"

# The fixtures' tones, one per track (Sources/PreviewTestSupport/Fixtures.swift).
TONES = [440, 550, 660, 770, 880, 990, 1100, 1250, 1400]


class RigError(Exception):
    """A failure of the rig itself (a program missing, a process that did not start)."""


def _show_bin_path(folder):
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    if not os.path.exists(swift):
        return None
    out = subprocess.run([swift, "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=folder,
                         capture_output=True, text=True, timeout=120)
    return Path(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip() else None


def main_bin_dir():
    """previewd, previewctl and itunes-standin: $PREVIEWD_BIN_DIR (scripts/test sets it) or the release build."""
    if os.environ.get("PREVIEWD_BIN_DIR"):
        return Path(os.environ["PREVIEWD_BIN_DIR"])
    return _show_bin_path(ROOT) or ROOT / ".build" / "release"


def web_binary():
    """previewd-web: $PREVIEWD_WEB_BIN, else $PREVIEWD_WEB_BIN_DIR/previewd-web, else Web's release build."""
    if os.environ.get("PREVIEWD_WEB_BIN"):
        return Path(os.environ["PREVIEWD_WEB_BIN"])
    folder = os.environ.get("PREVIEWD_WEB_BIN_DIR")
    folder = Path(folder) if folder else (_show_bin_path(WEB) or WEB / ".build" / "release")
    return folder / "previewd-web"


def artifacts_dir():
    """Where screenshots go: $PREVIEWD_ARTIFACTS, default Web/.artifacts/."""
    folder = Path(os.environ.get("PREVIEWD_ARTIFACTS") or WEB / ".artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(predicate, timeout, what):
    """Waits for `predicate` (a hang guard, not a speed check)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise RigError(f"{what} within {timeout} s")


class Pulse:
    """A private PulseAudio server with a null sink of its own (never one shared with other tests)."""

    def __init__(self, folder):
        self.folder = Path(folder) / "pulse"
        self.folder.mkdir(parents=True)
        self.socket = self.folder / "native"
        self.sink = "previewd_web_null"
        env = dict(os.environ, HOME=str(self.folder), XDG_RUNTIME_DIR=str(self.folder), XDG_CONFIG_HOME=str(self.folder))
        env.pop("PULSE_SERVER", None)
        pulseaudio = shutil.which("pulseaudio")
        if not pulseaudio:
            raise RigError("pulseaudio not found")
        self.process = subprocess.Popen(
            [pulseaudio, "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes",
             f"--log-target=file:{self.folder}/pulse.log",
             "-L", f"module-null-sink sink_name={self.sink} rate=48000 channels=2 sink_properties=device.description=previewd-web-null",
             "-L", f"module-native-protocol-unix auth-anonymous=1 socket={self.socket}"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.server = f"unix:{self.socket}"
        _wait(lambda: self.socket.exists() and subprocess.run(["pactl", "--server", self.server, "info"],
                                                              capture_output=True).returncode == 0,
              20, "PulseAudio did not start")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Recorder:
    """Records the sink's monitor (parec, mono float32 at 16 kHz): the sample count is the timeline."""

    RATE = 16000
    WINDOW = RATE // 20            # 50 ms
    SILENCE_RMS = 0.003

    def __init__(self, server, sink):
        self.samples = array.array("f")
        self.lock = threading.Lock()
        self.process = subprocess.Popen(
            ["parec", "--server", server, "-d", f"{sink}.monitor", "--raw", "--format=float32le", "--channels=1",
             f"--rate={self.RATE}", "--latency-msec=10"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        carry = b""
        while True:
            chunk = self.process.stdout.read1(65536) if hasattr(self.process.stdout, "read1") else self.process.stdout.read(4096)
            if not chunk:
                return
            carry += chunk
            whole = len(carry) // 4 * 4
            floats = array.array("f")
            floats.frombytes(carry[:whole])
            carry = carry[whole:]
            with self.lock:
                self.samples.extend(floats)

    @property
    def count(self):
        with self.lock:
            return len(self.samples)

    def window(self, start):
        with self.lock:
            return self.samples[start:start + self.WINDOW]

    @staticmethod
    def rms(window):
        return math.sqrt(sum(x * x for x in window) / len(window)) if len(window) else 0.0

    def power(self, hz, window):
        coeff = 2 * math.cos(2 * math.pi * hz / self.RATE)
        s1 = s2 = 0.0
        for x in window:
            s1, s2 = x + coeff * s1 - s2, s1
        return (s1 * s1 + s2 * s2 - coeff * s1 * s2) / max(1, len(window)) ** 2

    def tone(self, window):
        """The dominant fixture tone of a window, or None (silent or unclear)."""
        if self.rms(window) < self.SILENCE_RMS:
            return None
        powers = [self.power(hz, window) for hz in TONES]
        best = max(range(len(TONES)), key=lambda i: powers[i])
        others = max(p for i, p in enumerate(powers) if i != best)
        return TONES[best] if powers[best] > 10 * others else None

    def wait_for(self, test, after, timeout=15):
        """The first 50 ms window after sample `after` for which test(tone, rms) holds, or None."""
        position = after
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while position + self.WINDOW <= self.count:
                window = self.window(position)
                if test(self.tone(window), self.rms(window)):
                    return position
                position += self.WINDOW // 2
            time.sleep(0.02)
        return None

    def wait_for_tone(self, hz, after, timeout=15):
        return self.wait_for(lambda tone, rms: tone == hz, after, timeout)

    def wait_for_silence(self, seconds, after, timeout=15):
        """Where `seconds` of unbroken silence began after `after`, or None."""
        needed = int(seconds * self.RATE)
        state = {"since": None, "position": after}

        def test(tone, rms):
            if rms >= self.SILENCE_RMS:
                state["since"] = None
                return False
            if state["since"] is None:
                state["since"] = state["position"]
            return False

        position = after
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while position + self.WINDOW <= self.count:
                state["position"] = position
                window = self.window(position)
                test(None, self.rms(window))
                if state["since"] is not None and position + self.WINDOW - state["since"] >= needed:
                    return state["since"]
                position += self.WINDOW // 2
            time.sleep(0.02)
        return None

    def tones_after(self, after):
        """The tones heard after `after`, each run once, for failure messages."""
        heard = []
        position = after
        while position + self.WINDOW <= self.count:
            tone = self.tone(self.window(position))
            if tone and (not heard or heard[-1] != tone):
                heard.append(tone)
            position += self.WINDOW
        return heard

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Process:
    """A child process whose stderr is kept in a file for failure messages."""

    def __init__(self, argv, folder, name, env=None, stdout=subprocess.DEVNULL):
        self.log_path = Path(folder) / f"{name}.log"
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=self.log)

    def running(self):
        return self.process.poll() is None

    def stop(self, sig=signal.SIGTERM):
        if self.running():
            self.process.send_signal(sig)
            try:
                self.process.wait(20)
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


class Rig:
    """The stand-in, a private PulseAudio, previewd (its monitor recorded) and previewd-web on loopback."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="previewd-web-browser-"))
        self.bin = main_bin_dir()
        for name in ("previewd", "previewctl", "itunes-standin"):
            if not (self.bin / name).exists():
                raise RigError(f"{self.bin / name} is not built (swift build -c release --static-swift-stdlib)")
        self.web_bin = web_binary()
        if not self.web_bin.exists():
            raise RigError(f"{self.web_bin} is not built (cd Web && swift build -c release --static-swift-stdlib)")
        self.socket = self.folder / "previewd.sock"
        self.daemon = self.web = self.standin = self.recorder = self.pulse = None
        try:
            self.pulse = Pulse(self.folder)
            self.recorder = Recorder(self.pulse.server, self.pulse.sink)
            self.api_base = self.start_standin()
            self.start_daemon()
            self.port = free_port()
            self.web = Process([str(self.web_bin), "--listen", f"127.0.0.1:{self.port}", "--socket", str(self.socket),
                                "--config-dir", str(self.folder / "web-config")], self.folder, "previewd-web", env=self.env())
            self.url = f"http://127.0.0.1:{self.port}"
            _wait(self._web_listening, 30, f"previewd-web did not listen on {self.url}: {self.web.said()}")
        except BaseException:
            self.stop()
            raise

    def start_standin(self, *faults, port=0):
        """The iTunes stand-in (on `port`, or any), with `faults` as `--fault PATH=SPEC`; returns its base URL."""
        argv = [str(self.bin / "itunes-standin"), "--catalog", str(FIXTURES / "catalog.json"),
                "--previews", str(FIXTURES / "previews"), "--port", str(port)]
        for fault in faults:
            argv += ["--fault", fault]
        self.standin = Process(argv, self.folder, "standin", stdout=subprocess.PIPE)
        base = self.standin.process.stdout.readline().decode().strip()
        if not base.startswith("http://"):
            raise RigError(f"the stand-in did not start: {self.standin.said()}")
        return base

    def restart_standin(self, *faults):
        """The stand-in again on the same address (previewd keeps its --api-base), with `faults`."""
        self.standin.stop()
        self.start_standin(*faults, port=int(self.api_base.rsplit(":", 1)[1]))

    def env(self):
        env = dict(os.environ)
        env.update(PULSE_SERVER=self.pulse.server, XDG_CACHE_HOME=str(self.folder / "cache"),
                   XDG_STATE_HOME=str(self.folder / "state"), XDG_DATA_HOME=str(self.folder / "data"),
                   XDG_CONFIG_HOME=str(self.folder / "config"), XDG_RUNTIME_DIR=str(self.folder),
                   DBUS_SESSION_BUS_ADDRESS=f"unix:path={self.folder}/no-bus")
        return env

    def _web_listening(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def start_daemon(self):
        """previewd on the stand-in and the null sink; its state (the session) in the rig's folder, so a restart gives it back."""
        self.daemon = Process([str(self.bin / "previewd"), "--socket", str(self.socket), "--mpd", str(self.folder / "mpd.sock"),
                               "--api-base", self.api_base, "--sink", self.pulse.sink],
                              self.folder, "previewd", env=self.env())
        _wait(lambda: self.socket.exists() or not self.daemon.running(), 20, "previewd did not create its socket")
        if not self.daemon.running():
            raise RigError(f"previewd did not start: {self.daemon.said()}")

    def kill_daemon(self):
        """previewd killed outright (SIGKILL: no farewell), its socket left behind as a crash leaves it."""
        self.daemon.stop(signal.SIGKILL)
        if self.socket.exists():
            self.socket.unlink()

    def ctl(self, *args):
        """Runs the real previewctl against previewd's socket."""
        return subprocess.run([str(self.bin / "previewctl"), "--socket", str(self.socket), *args], capture_output=True,
                              text=True, timeout=30, env=self.env())

    def request(self, cmd, args=None):
        """One request on previewd's socket; returns the answer object."""
        body = {"id": 1, "cmd": cmd}
        if args is not None:
            body["args"] = args
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(30)
            s.connect(str(self.socket))
            s.sendall((json.dumps(body) + "\n").encode())
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        return json.loads(data)

    def status(self):
        answer = self.request("status")
        if not answer.get("ok"):
            raise RigError(f"status failed: {answer}")
        return answer["result"]

    def queue(self):
        answer = self.request("queue")
        if not answer.get("ok"):
            raise RigError(f"queue failed: {answer}")
        return answer["result"]

    def logs(self):
        return "\n".join(f"--- {p.log_path.name}:\n{p.said()}" for p in (self.daemon, self.web, self.standin) if p)

    def stop(self):
        for part in (self.web, self.daemon, self.standin):
            if part:
                part.stop()
        if self.recorder:
            self.recorder.stop()
        if self.pulse:
            self.pulse.stop()
