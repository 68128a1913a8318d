"""Process figures, read from /proc: CPU seconds, wake-ups (context switches of every thread per
second over a window), memory (peak and current RSS, smaps_rollup's Rss, Pss, USS and anonymous
memory), and the soak's census of a process (descriptors, threads, decoder workers, HTTP connections)."""
import os, threading, time

MEMORY = ["peak RSS", "Rss", "Pss", "USS", "Anonymous"]   # proc_memory_mib's figures, in the tables' order

def proc_cpu(pid):
    """CPU seconds (user + system) `pid` has used."""
    with open(f"/proc/{pid}/stat") as f: fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def cpu_of(pids):
    return sum(proc_cpu(pid) for pid in pids)

class Switches:
    """Context switches of every thread of `pid` (voluntary + involuntary, from /proc/PID/task/*/status)
    over a window: sampled every 0.5 s so threads that end inside the window still count."""
    def __init__(self, pid):
        self.pid = pid; self.first = {}; self.last = {}; self.stop_flag = threading.Event()
        self.sample(); self.first = dict(self.last)
        self.thread = threading.Thread(target=self.run, daemon=True); self.thread.start()
    def sample(self):
        for tid in os.listdir(f"/proc/{self.pid}/task"):
            try:
                with open(f"/proc/{self.pid}/task/{tid}/status") as f:
                    n = sum(int(l.split()[1]) for l in f if "ctxt_switches:" in l)
            except OSError:
                continue
            self.last[tid] = n
    def run(self):
        while not self.stop_flag.wait(0.5): self.sample()
    def per_second(self, seconds):
        self.stop_flag.set(); self.thread.join(); self.sample()
        return sum(n - self.first.get(tid, 0) for tid, n in self.last.items()) / seconds

def window(pid, seconds=10):
    """CPU seconds and context switches per second of `pid` over `seconds`."""
    cpu0 = proc_cpu(pid); sw = Switches(pid); time.sleep(seconds)
    return proc_cpu(pid) - cpu0, sw.per_second(seconds)

def status_kib(pid, key):
    """A kB field of /proc/PID/status (VmHWM, VmRSS) in KiB; None when it has none."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"): return int(line.split()[1])
    return None

def rollup_kib(pid):
    """/proc/PID/smaps_rollup's kB fields (Rss, Pss, Private_Clean, Anonymous...) in KiB."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB": fields[parts[0].rstrip(":")] = int(parts[1])
    return fields

def mib(kib):
    return float("nan") if kib is None else kib / 1024

def rss_mib(pid):
    return mib(status_kib(pid, "VmRSS"))

def proc_memory_mib(pid):
    """Peak RSS and smaps_rollup's Rss, Pss, USS (private clean + dirty) and anonymous memory, in MiB."""
    fields = {k: v / 1024 for k, v in rollup_kib(pid).items()}
    return {"peak RSS": mib(status_kib(pid, "VmHWM")), "Rss": fields["Rss"], "Pss": fields["Pss"],
            "USS": fields["Private_Clean"] + fields["Private_Dirty"], "Anonymous": fields["Anonymous"]}

def tcp_inodes(pid):
    """The inodes of the process's TCP sockets (its HTTP connections)."""
    inodes = set()
    for table in ("tcp", "tcp6"):
        try:
            with open(f"/proc/{pid}/net/{table}") as f:
                inodes.update(line.split()[9] for line in list(f)[1:])
        except OSError:
            pass
    return inodes

def proc_figures(pid):
    """(resident bytes, open descriptors but HTTP connections, threads, anonymous resident bytes,
    decoder workers, HTTP connections). The decoders' pool keeps its threads (they sleep until the
    next decode), and libcurl keeps idle connections for reuse, so both are counted apart."""
    rss = (status_kib(pid, "VmRSS") or 0) * 1024
    anon = rollup_kib(pid).get("Anonymous", 0) * 1024
    names = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f: names.append(f.read().strip())
        except OSError:
            pass
    workers = names.count("previewd.decode")
    tcp, links = tcp_inodes(pid), []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try: links.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError: pass
    connections = sum(1 for link in links if link.startswith("socket:[") and link[8:-1] in tcp)
    return rss, len(links) - connections, len(names) - workers, anon, workers, connections
