"""The real parts the browser tests drive, on harness.py's: the iTunes stand-in, previewd on a private
PulseAudio null sink whose monitor is recorded (parec), previewctl, and previewd-web. Nothing is stubbed:
the page talks to previewd-web over a real WebSocket, previewd fetches the stand-in's tone previews over
real HTTP and plays them through PulseAudio, and a tone is told from another by its frequency (one per track)."""

import array
import json
import math
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from harness import FIXTURES, TIMEOUT, WEB, Process, RigError, Stack, Web  # noqa: F401 (FIXTURES: for the tests)

# The fixtures' tones, one per track (Sources/PreviewTestSupport/Fixtures.swift).
TONES = [440, 550, 660, 770, 880, 990, 1100, 1250, 1400]


def artifacts_dir():
    """Where screenshots go: $PREVIEWD_ARTIFACTS, default Web/.artifacts/."""
    folder = Path(os.environ.get("PREVIEWD_ARTIFACTS") or Path(WEB) / ".artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Recorder(Process):
    """Records the sink's monitor (parec, mono float32 at 16 kHz): the sample count is the timeline."""

    RATE = 16000
    WINDOW = RATE // 20            # 50 ms
    SILENCE_RMS = 0.003

    def __init__(self, pulse, folder):
        self.samples = array.array("f")
        self.lock = threading.Lock()
        super().__init__(["parec", "--server", pulse.server, "-d", f"{pulse.sink}.monitor", "--raw", "--format=float32le",
                          "--channels=1", f"--rate={self.RATE}", "--latency-msec=10"], folder, "parec", stdout=subprocess.PIPE)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

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

    def wait_for(self, found, after, timeout=15):
        """The first 50 ms window (by its first sample) after sample `after` for which found(position, window)
        holds, or None; windows overlap by half."""
        position = after
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while position + self.WINDOW <= self.count:
                if found(position, self.window(position)):
                    return position
                position += self.WINDOW // 2
            time.sleep(0.02)
        return None

    def wait_for_tone(self, hz, after, timeout=15):
        return self.wait_for(lambda _, window: self.tone(window) == hz, after, timeout)

    def wait_for_silence(self, seconds, after, timeout=15):
        """Where `seconds` of unbroken silence began after `after`, or None."""
        needed = int(seconds * self.RATE)
        since = None

        def long_enough(position, window):
            nonlocal since
            if self.rms(window) >= self.SILENCE_RMS:
                since = None
                return False
            if since is None:
                since = position
            return position + self.WINDOW - since >= needed

        return since if self.wait_for(long_enough, after, timeout) is not None else None

    def levels_db(self, hz, start, end):
        """The level of `hz` (dB, its Goertzel power: for comparing levels) in each 50 ms window from
        sample `start` to `end` in which `hz` is the tone heard."""
        levels = []
        for position in range(start, end - self.WINDOW + 1, self.WINDOW):
            window = self.window(position)
            if self.tone(window) == hz:
                levels.append(10 * math.log10(self.power(hz, window)))
        return levels

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

    def stop(self, sig=signal.SIGTERM):
        self.process.send_signal(sig)
        self.reader.join(TIMEOUT)        # the reader has seen the end before the pipe is closed
        return super().stop(sig)


class Rig(Stack):
    """harness.Stack with its sink's monitor recorded, and previewd-web on loopback."""

    def __init__(self, fixtures=None):
        super().__init__(fixtures)
        self.recorder = self.web = None
        self.start()
        try:
            self.recorder = Recorder(self.pulse, self.dir)
            self.web = Web(self).start()
            self.url = self.web.origin
        except BaseException:
            self.stop()
            raise

    def ctl(self, *args):
        """Runs the real previewctl against previewd's socket."""
        return subprocess.run([os.path.join(self.bins, "previewctl"), "--socket", self.socket, *args], capture_output=True,
                              text=True, timeout=30, env=self.env)

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

    def result(self, cmd):
        """request()'s result; an answer that is not ok is a RigError."""
        answer = self.request(cmd)
        if not answer.get("ok"):
            raise RigError(f"{cmd} failed: {answer}")
        return answer["result"]

    def status(self):
        return self.result("status")

    def queue(self):
        return self.result("queue")

    def logs(self):
        parts = (self.previewd, self.web and self.web.proc, self.standin)
        return "\n".join(f"--- {p.log_path.name}:\n{p.said()}" for p in parts if p)

    def stop(self):
        for part in (self.web, self.recorder):
            if part:
                part.stop()
        super().stop()
