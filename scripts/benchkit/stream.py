"""The stream section (`scripts/bench-compare stream [REPEATS]`): previewd's HTTP stream output
(`--output http://127.0.0.1:PORT/previewd.mp3,bitrate=128`, its only output) beside Debian's MPD with
its httpd output (lame, 128 kbit/s, 48000:16:2, its only output), each a fresh daemon per round,
playing the same 30 s tones. A listener is FFmpeg decoding the stream (as a player would), its
samples time-stamped as they arrive; 15 more listeners are raw sockets reading as fast as they can.
Rows: `next` heard in the stream (command → the next tone's first 10 ms window in the decoded
stream), CPU over 10 s playing with 1 and with 16 listeners, over 10 s paused with 1 listener (the
silence), wake-ups (context switches a second, every thread) over 10 s idle and paused with no
listener, and anonymous memory with 16 listeners."""
import os, socket, subprocess, threading, time

from .heard import RATE, Recorder, latency, tone_of, wait_for
from .players import MPDReference, Previewd
from .process import rollup_kib, window
from .report import medians, raw
from .rig import Rig, free_port, sh

PATH = "/previewd.mp3"

class StreamRecorder(Recorder):
    """FFmpeg playing `url` (mono float32 at 48 kHz out), time-stamped like the monitor's recorder."""
    def __init__(self, url):
        self.proc = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-fflags", "nobuffer", "-probesize", "32768",
                                      "-analyzeduration", "0", "-i", url, "-ac", "1", "-ar", str(RATE), "-f", "f32le", "-"],
                                     stdout=subprocess.PIPE)
        self.samples, self.marks, self.lock = [], [], threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

class Reader:
    """A listener that reads and forgets the stream, on a thread of its own."""
    def __init__(self, port):
        self.conn = socket.create_connection(("127.0.0.1", port))
        self.conn.sendall(f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        threading.Thread(target=self._read, daemon=True).start()
    def _read(self):
        try:
            while self.conn.recv(65536): pass
        except OSError: pass
    def close(self): self.conn.close()

class StreamPreviewd(Previewd):
    name = "previewd"
    def output(self, sink):
        self.port = free_port()
        self.extra = ["--no-mpris", "--mpd", "off"] + os.environ.get("BENCH_STREAM_EXTRA", "").split()
        return ["--output", f"http://127.0.0.1:{self.port}{PATH},bitrate=128"]

class StreamMPD(MPDReference):
    """Debian's MPD with only an httpd output, playing the tones from a local folder."""
    def audio_output(self, sink, server):
        self.port = free_port()
        return (f'audio_output {{\n  type "httpd"\n  name "stream"\n  encoder "lame"\n  port "{self.port}"\n'
                '  bind_to_address "127.0.0.1"\n  bitrate "128"\n  format "48000:16:2"\n}\n')

ROWS = ["next heard in the stream (ms)", "CPU s / 10 s, 1 listener", "CPU s / 10 s, 16 listeners",
        "CPU s / 10 s, paused, 1 listener", "wake-ups/s paused, 1 listener", "wake-ups/s idle, no listener",
        "wake-ups/s paused, no listener", "anonymous memory, 16 listeners (MiB)"]

def measure(player_class, rig, repeats):
    rows = {k: [] for k in ROWS}
    for _ in range(repeats):
        p = player_class(*rig.parts)
        time.sleep(1)   # settled after start-up, nothing queued
        rows["wake-ups/s idle, no listener"].append(window(p.proc.pid)[1])
        p.start("long tones"); time.sleep(1); p.pause(); time.sleep(1)
        rows["wake-ups/s paused, no listener"].append(window(p.proc.pid)[1])
        rec = StreamRecorder(f"http://127.0.0.1:{p.port}{PATH}")
        cpu, switches = window(p.proc.pid)
        rows["CPU s / 10 s, paused, 1 listener"].append(cpu); rows["wake-ups/s paused, 1 listener"].append(switches)
        p.resume()
        wait_for(rec, rec.count(), lambda w: tone_of(w) == 440, timeout=20)
        time.sleep(1)
        t = time.monotonic(); p.next(); rows["next heard in the stream (ms)"].append(latency(rec, t, lambda w: tone_of(w) == 660))
        time.sleep(1)
        rows["CPU s / 10 s, 1 listener"].append(window(p.proc.pid)[0])
        readers = [Reader(p.port) for _ in range(15)]
        time.sleep(1)
        rows["CPU s / 10 s, 16 listeners"].append(window(p.proc.pid)[0])
        rows["anonymous memory, 16 listeners (MiB)"].append(rollup_kib(p.proc.pid)["Anonymous"] / 1024)
        for r in readers: r.close()
        rec.stop(); p.stop()
    raw(player_class.name, rows)
    return medians(rows)

def stream(repeats):
    """previewd's HTTP stream beside MPD's httpd output; prints the table (docs: the closing note)."""
    with Rig(deps="mpd") as rig:
        ours = measure(StreamPreviewd, rig, repeats)
        ref = measure(StreamMPD, rig, repeats)
    version = sh("mpd", "--version").split("\n")[0]
    lines = [f"{version}; MP3 128 kbit/s (libmp3lame in both), 48 kHz stereo, one output each. Medians of {repeats} fresh daemons.", "",
             "| measure | previewd | MPD |", "|---|---:|---:|"]
    for k in ROWS:
        a, b = ours.get(k), ref.get(k)
        lines.append(f"| {k} | {'n/a' if a is None else f'{a:.2f}'} | {'n/a' if b is None else f'{b:.2f}'} |")
    print("\n".join(lines))
