"""The players compared, each started fresh on the rig's null sink with (bins, api, server, sink, work)
and driven by the same verbs (start a search, next, prev, pause, resume, status, stop): previewd on
its JSON socket (and its variants: without normalisation, through its MPD port, inside the network
rig, tapping a result), mpv on its IPC socket, and Debian's MPD on one held connection."""
import json, os, socket, subprocess, tempfile, time
import urllib.parse, urllib.request

from .rig import FIXTURES, SHORT, TONES, connect, free_port

def handed(answer):
    """previewd's own figure: command arrival → first PCM frame handed to the audio stream, in ms."""
    us = (answer.get("result") or {}).get("switchMicroseconds") if isinstance(answer, dict) else None
    return None if us is None else us / 1000

class Previewd:
    name = "previewd"
    extra = []
    log_path = None   # previewd's log goes here when set (with --verbose in `extra`)
    def __init__(self, bins, api, server, sink, work):
        self.sock = os.path.join(work, "previewd.sock"); self.bins = bins
        if os.path.exists(self.sock): os.unlink(self.sock)
        env = dict(os.environ, PULSE_SERVER=server)
        log = open(self.log_path, "w") if self.log_path else subprocess.DEVNULL
        # A fresh daemon each time: its own state folder, nothing restored from an earlier run.
        self.proc = subprocess.Popen(self.launcher + [os.path.join(bins, "previewd"), "--socket", self.sock, "--api-base", api,
                                      "--state-dir", tempfile.mkdtemp(dir=work)] + self.output(sink) + self.extra,
                                     env=env, stderr=log)
        self.conn = connect(self.sock, self.proc); self.file = self.conn.makefile("rwb")
    @property
    def launcher(self):
        """The words before previewd's own (systemd-socket-activate for a socket-activated start)."""
        return []
    def output(self, sink):
        """The output options: the null sink (bench-outputs names other outputs)."""
        return ["--sink", sink]
    def cmd(self, name, **args):
        self.file.write((json.dumps({"id": 1, "cmd": name, "args": args}) + "\n").encode()); self.file.flush()
        return json.loads(self.file.readline())
    def start(self, term, limit=50): return self.cmd("search", term=term, limit=limit)
    def next(self): return self.cmd("next")
    def prev(self): return self.cmd("prev")
    def pause(self): return self.cmd("pause")
    def resume(self): return self.cmd("resume")
    def status(self): return self.cmd("status")
    def stop(self):
        self.cmd("stop"); self.conn.close(); self.proc.terminate(); self.proc.wait()

class PreviewdWithoutNormalization(Previewd):
    """The same without loudness normalisation: what measuring and the cold start's estimate cost."""
    name = "previewd --normalize off"
    extra = ["--normalize", "off"]

class Mpv:
    name = "mpv"
    extra = []
    def __init__(self, bins, api, server, sink, work):
        self.sock = os.path.join(work, "mpv.sock"); self.api = api; self.work = work
        if os.path.exists(self.sock): os.unlink(self.sock)
        env = dict(os.environ, PULSE_SERVER=server)
        self.proc = subprocess.Popen(["mpv", "--idle=yes", "--no-config", "--no-video", "--no-terminal",
                                      f"--input-ipc-server={self.sock}", "--prefetch-playlist=yes", "--gapless-audio=yes",
                                      "--ao=pulse", f"--audio-device=pulse/{sink}", "--cache=yes"] + self.extra, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.conn = connect(self.sock, self.proc); self.file = self.conn.makefile("rwb")
    def cmd(self, *command):
        self.file.write((json.dumps({"command": list(command), "request_id": 1}) + "\n").encode()); self.file.flush()
        while True:
            reply = json.loads(self.file.readline())
            if reply.get("request_id") == 1: return reply
    def start(self, term, limit=50):
        # mpv has no catalog: the same search through the stand-in, then the preview URLs as a playlist.
        query = urllib.parse.urlencode({"term": term, "limit": limit})
        with urllib.request.urlopen(f"{self.api}/search?{query}") as answer:
            urls = [t["previewUrl"] for t in json.load(answer)["results"]]
        playlist = os.path.join(self.work, "list.m3u")
        with open(playlist, "w") as f: f.write("\n".join(urls) + "\n")
        return self.cmd("loadlist", playlist, "replace")
    def next(self): return self.cmd("playlist-next")
    def prev(self): return self.cmd("playlist-prev")
    def pause(self): return self.cmd("set_property", "pause", True)
    def resume(self): return self.cmd("set_property", "pause", False)
    def status(self): return None
    def stop(self):
        self.cmd("stop"); self.conn.close(); self.proc.terminate(); self.proc.wait()

class MPDConnection:
    """One held connection speaking MPD's protocol: a request (or several, as one command list) and its answer lines."""
    def __init__(self, address, proc, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None: raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}")
            try:
                if isinstance(address, str):
                    self.conn = socket.socket(socket.AF_UNIX); self.conn.connect(address)
                else:
                    self.conn = socket.create_connection(address)
                break
            except OSError:
                if time.monotonic() > deadline: raise
                time.sleep(0.01)
        self.file = self.conn.makefile("rwb")
        greeting = self.file.readline().decode()
        if not greeting.startswith("OK MPD"): raise RuntimeError(f"not MPD: {greeting!r}")
    def __call__(self, *commands):
        lines = list(commands) if len(commands) == 1 else ["command_list_begin", *commands, "command_list_end"]
        self.file.write(("\n".join(lines) + "\n").encode()); self.file.flush()
        answer = []
        while True:
            line = self.file.readline().decode().rstrip("\n")
            if line == "OK": return answer
            if line.startswith("ACK") or not line: raise RuntimeError(f"{commands}: {line or 'connection closed'}")
            answer.append(line)
    def close(self): self.conn.close()

class PreviewdMPD(Previewd):
    """previewd steered through its MPD port (status still read on the JSON socket, for its own clock)."""
    name = "previewd (MPD protocol)"
    def __init__(self, bins, api, server, sink, work):
        self.mpd_sock = os.path.join(work, "previewd-mpd.sock")
        if os.path.exists(self.mpd_sock): os.unlink(self.mpd_sock)
        self.extra = ["--mpd", self.mpd_sock]
        super().__init__(bins, api, server, sink, work)
        self.mpd = MPDConnection(self.mpd_sock, self.proc)
    def start(self, term, limit=50):
        return self.mpd("clear", f'searchadd "(any contains \'{term}\')" window 0:{limit}', "play 0")
    def next(self): return self.mpd("next")
    def prev(self): return self.mpd("previous")
    def pause(self): return self.mpd("pause 1")
    def resume(self): return self.mpd("pause 0")
    def stop(self):
        self.mpd("stop"); self.mpd.close(); super().stop()

class MPDReference:
    """Debian's MPD playing the same clips from a local music folder into the same sink."""
    name = "MPD"
    def __init__(self, bins, api, server, sink, work):
        base = tempfile.mkdtemp(dir=work); music = os.path.join(base, "music"); os.makedirs(music)
        for name in os.listdir(FIXTURES):
            if name.endswith(".m4a"): os.symlink(os.path.join(FIXTURES, name), os.path.join(music, name))
        port = free_port()
        conf = os.path.join(base, "mpd.conf")
        with open(conf, "w") as f:
            f.write(f'music_directory "{music}"\ndb_file "{base}/db"\nbind_to_address "127.0.0.1"\nport "{port}"\n'
                    'zeroconf_enabled "no"\nauto_update "no"\n' + self.audio_output(sink, server))
        self.proc = subprocess.Popen(["mpd", "--no-daemon", conf], env=dict(os.environ, PULSE_SERVER=server),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.mpd = MPDConnection(("127.0.0.1", port), self.proc)
        self.mpd("update")
        while any(l.startswith("updating_db:") for l in self.mpd("status")): time.sleep(0.05)
    def audio_output(self, sink, server):
        """mpd.conf's output: the rig's null sink."""
        return f'audio_output {{\n  type "pulse"\n  name "bench"\n  sink "{sink}"\n  server "{server.removeprefix("unix:")}"\n}}\n'
    def start(self, term, limit=50):
        files = [f"long-{TONES[i % 3]}.m4a" for i in range(limit)] if term == "long tones" else [f"short-{hz}.m4a" for hz in SHORT]
        return self.mpd("clear", *[f'add "{f}"' for f in files], "play 0")
    def next(self): return self.mpd("next")
    def prev(self): return self.mpd("previous")
    def pause(self): return self.mpd("pause 1")
    def resume(self): return self.mpd("pause 0")
    def status(self): return None
    def stop(self):
        self.mpd("stop"); self.mpd.close(); self.proc.terminate(); self.proc.wait()

class NetworkPreviewd(Previewd):
    """previewd inside the network rig: the rig's API over TLS, its CA trusted, the CDN as the usual preview host."""
    name = "previewd (network)"
    extra = []
    def __init__(self, bins, api, server, sink, work):
        self.extra = ["--preview-host", os.environ["NETRIG_CDN"], "--ca-file", os.environ["NETRIG_CA"], "--no-mpris"] \
            + os.environ.get("BENCH_NETWORK_EXTRA", "").split()
        super().__init__(bins, os.environ["NETRIG_API"], server, sink, work)

class ProbedPreviewd(NetworkPreviewd):
    """previewd in the rig for the probe cases: its log kept (the start timeline), and no usual preview
    host (no pre-connect) when BENCH_NO_PRECONNECT is set. With BENCH_ACTIVATED, started by its socket
    (systemd-socket-activate, as previewd.socket does): the first connection starts it, and it probes
    the API's origin and the CDN's at once while the search waits; BENCH_PROBED_EXTRA adds options
    (--keep-warm 0: no pre-connect at all)."""
    def __init__(self, bins, api, server, sink, work):
        self.log_path = os.path.join(work, "previewd.log")
        super().__init__(bins, api, server, sink, work)
    @property
    def activated(self): return bool(os.environ.get("BENCH_ACTIVATED"))
    @property
    def extra(self):
        host = [] if os.environ.get("BENCH_NO_PRECONNECT") else ["--preview-host", os.environ["NETRIG_CDN"]]
        return host + ["--ca-file", os.environ["NETRIG_CA"], "--no-mpris", "--verbose"] + os.environ.get("BENCH_PROBED_EXTRA", "").split()
    @extra.setter
    def extra(self, value): pass
    @property
    def launcher(self):
        return ["systemd-socket-activate", "-l", self.sock, "-E", "PULSE_SERVER"] if self.activated else []

class NetworkMpv(Mpv):
    """mpv trusting the rig's CA."""
    @property
    def extra(self): return [f"--tls-ca-file={os.environ['NETRIG_CA']}", "--tls-verify=yes"]

class TappingPreviewd(Previewd):
    """previewd as the web remote taps: a look (`"queue": false`), then one `add` that makes the
    results the queue and plays the one tapped."""
    name = "previewd, look + tap verb"
    def look(self, term, limit): self.ids = [t["trackId"] for t in self.cmd("search", term=term, limit=limit, queue=False)["result"]["results"]]
    def tap(self, k): return self.cmd("add", trackIds=self.ids, replace=True, play=k)

class TappingPreviewdNoHeads(TappingPreviewd):
    name = "previewd --prefetch-heads 0, look + tap verb"
    extra = ["--prefetch-heads", "0"]

class IndexingPreviewd(Previewd):
    """previewd with the search queued (it plays the first result), then `play {"index"}`."""
    name = "previewd, search + play index"
    def look(self, term, limit): self.start(term, limit)
    def tap(self, k): return self.cmd("play", index=k)

class TappingMpv(Mpv):
    name = "mpv, loadlist + playlist-play-index"
    def look(self, term, limit): self.start(term, limit)
    def tap(self, k): return self.cmd("playlist-play-index", k)
