"""The rig every bench stands on: the release build the README names, a private PulseAudio server with
a null sink (the one definition for the Python scripts and previewd-web's tests; the Swift tests have
PreviewTestSupport's, scripts/test the shell's in scripts/lib/common.sh), the iTunes stand-in, free
ports, the fixtures (tone clips and a catalog of them), and `Rig`, which sets all of it up for one
run and takes it down."""
import json, os, shutil, socket, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The one release build: the Swift runtime linked in, Debian's C libraries shared.
RELEASE = ["swift", "build", "-c", "release", "--static-swift-stdlib"]
FIXTURES = os.path.join(ROOT, "Benchmarks/.build-fixtures")   # made once, kept out of git
DELAY_MS = 150                 # the stand-in's wait before each preview answer (a far CDN)
TONES = [440, 660, 880]        # the three 30 s previews, in queue order
SHORT = [770, 990]             # two 2 s previews for the auto-advance gap
SECOND_SET = [660, 880, 440]   # the warm start's search: the same clips at other URLs
QUEUED = [10, 200]             # queue lengths the memory is measured with
TAP_SHOWN = 50                 # the tap section's results in the catalog, each at a URL of its own

def build_release(root, *extra):
    """Builds the release binaries in `root`; returns the folder of its executables."""
    subprocess.run(RELEASE + list(extra), cwd=root, check=True, stdout=subprocess.DEVNULL)
    return subprocess.run(RELEASE + ["--show-bin-path"], cwd=root, check=True, stdout=subprocess.PIPE,
                          text=True).stdout.strip()

def common(root, script):
    """Runs `script` (e.g. "install_deps mpv") in bash with scripts/lib/common.sh sourced, from `root`:
    the shell and Python scripts share one definition of install_deps and make_bench_clip."""
    subprocess.run(["bash", "-c", "source scripts/lib/common.sh && " + script], cwd=root, check=True)

def sh(*cmd, **kw):
    """`cmd`'s standard output; raises when it fails."""
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw).stdout

def free_port(host="127.0.0.1"):
    """A TCP port nothing listens on at `host` now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]

def connect(path, proc, timeout=10):
    """Connects to a player's Unix socket once it listens (a stale file from a previous run is removed first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None: raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}")
        try:
            conn = socket.socket(socket.AF_UNIX); conn.connect(path); return conn
        except OSError:
            conn.close(); time.sleep(0.01)
    raise RuntimeError(f"nothing listens on {path}")

def pulse_command(folder, sink, log=None):
    """The command line and environment of a private PulseAudio server: a null sink named `sink` (48 kHz
    stereo), anonymous auth on the socket `folder`/native, HOME and XDG_* in `folder` so nothing of the
    user's is read or written; its log to the file `log` (None: none kept)."""
    env = dict(os.environ, HOME=folder, XDG_RUNTIME_DIR=folder, XDG_CONFIG_HOME=folder)
    env.pop("PULSE_SERVER", None)
    argv = ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes"]
    if log: argv.append(f"--log-target=file:{log}")
    argv += ["-L", f"module-null-sink sink_name={sink} rate=48000 channels=2",
             "-L", f"module-native-protocol-unix auth-anonymous=1 socket={folder}/native"]
    return argv, env

class Pulse:
    """A private PulseAudio server (`pulse_command`) in `folder`; `server` is its address for
    PULSE_SERVER. `start` after `kill` starts it again on the same socket (the soak's restarts)."""
    def __init__(self, folder, sink):
        self.dir, self.sink = folder, sink
        self.server = f"unix:{folder}/native"
        self.proc = self.keeper = None
    def start(self, keep_rendering=False):
        """Starts the server and waits until it answers. With `keep_rendering`, a stream of silence
        keeps the sink rendering, so its monitor delivers in real time before a player starts."""
        argv, env = pulse_command(self.dir, self.sink)
        self.proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if subprocess.run(["pactl", "--server", self.server, "info"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("PulseAudio did not start")
        if keep_rendering:
            self.keeper = subprocess.Popen(["pacat", "--server", self.server, "-d", self.sink, "--raw", "--format=s16le",
                                            "--rate=48000", "--channels=2", "--latency-msec=20", "/dev/zero"],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
        return self
    def kill(self):
        """Killed outright (SIGKILL), its socket removed: as a crash leaves the clients."""
        if self.proc:
            self.proc.kill(); self.proc.wait(); self.proc = None
            try: os.unlink(f"{self.dir}/native")
            except FileNotFoundError: pass
    def stop(self):
        for proc in (self.keeper, self.proc):
            if proc: proc.terminate(); proc.wait()
        self.proc = self.keeper = None

class StandIn:
    """The iTunes stand-in (Sources/itunes-standin) serving `catalog` and the clips in `previews`, with
    `options` (--preview-delay-ms, --fault); `api` is its base URL."""
    def __init__(self, bins, catalog, previews, *options):
        self.proc = subprocess.Popen([os.path.join(bins, "itunes-standin"), "--catalog", catalog, "--previews", previews,
                                      *options], stdout=subprocess.PIPE, text=True)
        self.api = self.proc.stdout.readline().strip()
    def stop(self):
        self.proc.terminate(); self.proc.wait()

def make_fixtures():
    """The benches' clips in FIXTURES (the three 30 s, 256 kbps tones made once, the two short tones
    copied from Tests/Fixtures) and a catalog of them; returns (catalog path, clips folder)."""
    os.makedirs(FIXTURES, exist_ok=True)
    for hz in TONES:
        path = os.path.join(FIXTURES, f"long-{hz}.m4a")
        if not os.path.exists(path):
            sh("ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"sine=frequency={hz}:sample_rate=44100:duration=30",
               "-ac", "2", "-c:a", "aac", "-b:a", "256k", "-movflags", "+faststart", path)
    for hz in SHORT:
        shutil.copy(os.path.join(ROOT, f"Tests/Fixtures/previews/tone-{hz}.m4a"), os.path.join(FIXTURES, f"short-{hz}.m4a"))
    def track(track_id, collection, name, preview):
        return {"wrapperType": "track", "kind": "song", "trackId": track_id, "artistName": "Bench", "collectionName": collection,
                "trackName": name, "previewUrl": "{{BASE}}/previews/" + preview}
    # the three long tones in turn; the warm start's set at other URLs; the tap section's, each at a URL of its own
    results = [track(9000 + i, "Long Tones", f"Long {TONES[i % 3]} #{i}", f"long-{TONES[i % 3]}.m4a") for i in range(max(QUEUED))]
    results += [track(9800 + j, "Second Set", f"Again {hz}", f"long-{hz}.m4a?set=2") for j, hz in enumerate(SECOND_SET)]
    results += [track(9500 + i, "Tap Tones", f"Tap {TONES[i % 3]} #{i}", f"long-{TONES[i % 3]}.m4a?tap={i}") for i in range(TAP_SHOWN)]
    results += [track(9900 + j, "Short Tones", f"Short {hz}", f"short-{hz}.m4a") for j, hz in enumerate(SHORT)]
    catalog = os.path.join(FIXTURES, "bench-catalog.json")
    with open(catalog, "w") as f: json.dump({"resultCount": len(results), "results": results}, f)
    return catalog, FIXTURES

class Rig:
    """One bench's rig, set up by `with Rig(...) as rig:` (or `start`) and taken down when the block
    ends (or by `stop`): Debian's packages (`deps`, as install_deps takes them: "" installs the rig's,
    None skips the step), the release build (`bins`), a work folder (`work`), the fixtures (`catalog`,
    `clips`), a private PulseAudio whose null sink is kept rendering (`server`, `sink`) and, unless
    `standin` is False, the stand-in (`api`) waiting `delay_ms` before each preview answer (None: no wait)."""
    def __init__(self, deps=None, prefix="previewd-bench-", standin=True, delay_ms=DELAY_MS):
        self.deps, self.prefix, self.with_standin, self.delay_ms = deps, prefix, standin, delay_ms
        self.pulse = self.standin = self.work = None
        self.api = None
    def start(self):
        if self.deps is not None: common(ROOT, f"install_deps {self.deps}".strip())
        self.bins = build_release(ROOT)
        self.work = tempfile.mkdtemp(prefix=self.prefix)
        try:
            self.catalog, self.clips = make_fixtures()
            os.makedirs(os.path.join(self.work, "pulse"))
            self.pulse = Pulse(os.path.join(self.work, "pulse"), "bench_null").start(keep_rendering=True)
            self.server, self.sink = self.pulse.server, self.pulse.sink
            if self.with_standin:
                delay = [] if self.delay_ms is None else ["--preview-delay-ms", str(self.delay_ms)]
                self.standin = StandIn(self.bins, self.catalog, self.clips, *delay)
                self.api = self.standin.api
        except BaseException:
            self.stop()
            raise
        return self
    def stop(self):
        if self.standin: self.standin.stop()
        if self.pulse: self.pulse.stop()
        self.standin = self.pulse = None
        shutil.rmtree(self.work, ignore_errors=True)
    def __enter__(self): return self.start()
    def __exit__(self, *_): self.stop()
    @property
    def parts(self):
        """What a player is started with: (bins, api, server, sink, work)."""
        return self.bins, self.api, self.server, self.sink, self.work
