"""What is heard: the null sink's monitor recorded (parec) with each sample's wall time, the tone a
10 ms window holds (Goertzel), and the time from a command to audible (or silent) in 10 ms windows
(`latency`) or in 1 ms steps against a level (`onset`, `next_onset`)."""
import array, math, os, subprocess, sys, threading, time

from .rig import SHORT, TONES

RATE = 48000
WINDOW = RATE // 100           # 10 ms
SILENCE = 0.003                # RMS below which a window is silent

class Recorder:
    """parec on the sink monitor; maps sample indices to wall time via chunk arrival times."""
    def __init__(self, server, sink):
        self.proc = subprocess.Popen(["parec", "--server", server, "-d", sink + ".monitor", "--raw", "--format=float32le",
                                      "--channels=1", f"--rate={RATE}", "--latency-msec=5"], stdout=subprocess.PIPE)
        self.samples = []
        self.marks = []         # (sample count after chunk, arrival time)
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
    def _read(self):
        carry = b""
        while True:
            chunk = self.proc.stdout.read1(4096) if hasattr(self.proc.stdout, "read1") else self.proc.stdout.read(4096)
            if not chunk: return
            now = time.monotonic()
            carry += chunk
            n = len(carry) // 4 * 4
            values = array.array("f"); values.frombytes(carry[:n]); carry = carry[n:]
            with self.lock:
                self.samples.extend(values)
                self.marks.append((len(self.samples), now))
    def flowing(self, timeout=10):
        """Waits (at most `timeout` s) until half a second has come: the monitor then flows in real time
        (the rig's silence keeper makes it)."""
        deadline = time.monotonic() + timeout
        while self.count() < RATE // 2 and time.monotonic() < deadline: time.sleep(0.01)
        return self
    def index_at(self, t):
        with self.lock:
            for count, arrived in self.marks:
                if arrived >= t: return max(0, count - int((arrived - t) * RATE))
            return len(self.samples)
    def count(self):
        with self.lock: return len(self.samples)
    def window(self, i, size=WINDOW):
        with self.lock: return self.samples[i:i + size]
    def since(self, i):
        """Every sample from index `i` on, as recorded so far."""
        with self.lock: return self.samples[i:]
    def stop(self):
        self.proc.terminate(); self.proc.wait()

def goertzel(x, f):
    w = 2 * math.pi * f / RATE; c = 2 * math.cos(w); s1 = s2 = 0.0
    for v in x:
        s0 = v + c * s1 - s2; s2 = s1; s1 = s0
    return s1 * s1 + s2 * s2 - c * s1 * s2

def rms(x): return math.sqrt(sum(v * v for v in x) / len(x)) if x else 0.0

def tone_of(x):
    """The fixtures' tone that `x` holds, ten times stronger than any other; None for silence or a mix."""
    if rms(x) < SILENCE: return None
    p = {f: goertzel(x, f) for f in TONES + SHORT}
    best = max(p, key=p.get)
    others = max(v for f, v in p.items() if f != best)
    return best if p[best] > 10 * others else None

def wait_for(rec, start, test, timeout=10):
    """The index of the first 10 ms window from `start` on that passes `test`; None after `timeout` s."""
    i = start; deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        while i + WINDOW <= rec.count():
            if test(rec.window(i)): return i
            i += WINDOW
        time.sleep(0.005)
    return None

def latency(rec, t_cmd, test):
    """Milliseconds from `t_cmd` to the first 10 ms window that passes `test`; None if none came."""
    start = rec.index_at(t_cmd)
    hit = wait_for(rec, start, test)
    if os.environ.get("BENCH_DEBUG"):
        print(f"latency: start={start} hit={hit} count={rec.count()} lag={(time.monotonic() - t_cmd) * 1000:.0f} ms", file=sys.stderr)
    return None if hit is None else (hit - start) * 1000 / RATE

def onset(rec, t_cmd, dbfs, sounding=True, timeout=10):
    """Milliseconds from `t_cmd` to the first 1 ms window of the monitor at or above `dbfs` RMS (below
    it when not `sounding`), in 1 ms steps; None when none came within `timeout` s."""
    level, step = 10 ** (dbfs / 20), RATE // 1000
    start = i = rec.index_at(t_cmd); deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        while i + step <= rec.count():
            if (rms(rec.window(i, step)) >= level) == sounding: return (i - start) * 1000 / RATE
            i += step
        time.sleep(0.005)
    return None

def next_onset(rec, start, dbfs):
    """After a skip from 440 to 660 Hz: ms from `start` to the first 1 ms window where the 660 Hz tone
    alone is at `dbfs` (the old tone may still sound before it, or a short silence come between)."""
    step, level = RATE // 1000, 10 ** (dbfs / 20)
    samples = rec.since(start)
    # the 660 Hz part of each 1 ms window, by a 10 ms Goertzel centred on it (1 ms is too short to tell tones apart)
    for j in range(0, len(samples) - WINDOW, step):
        w = samples[j:j + WINDOW]
        p660, p440 = goertzel(w, 660), goertzel(w, 440)
        amplitude = 2 * math.sqrt(max(p660, 0)) / len(w)   # the 660 Hz tone's peak in the window
        if amplitude / math.sqrt(2) >= level and p660 > 10 * p440:
            return (j + WINDOW / 2) * 1000 / RATE - 5   # the window's centre, less half a window: where it began to count
    return None
