"""The rounds a player is put through, each on a fresh player, returning the medians of `repeats`
(the rounds themselves go to stderr): bench-compare's main measures (start, next, prev, pause,
auto-advance gap, CPU, wake-ups, memory), the start in 1 ms steps, 200 adds over MPD's protocol,
a tap on a result and what a look costs, and the rounds run inside Tests/NetworkRig/netrig.py
(a warm path at a round-trip time, a cold start per probe answer), which print one JSON line."""
import json, os, statistics, sys, tempfile, time

from .heard import SILENCE, WINDOW, Recorder, latency, next_onset, onset, rms, tone_of, wait_for
from .players import MPDReference, NetworkMpv, NetworkPreviewd, ProbedPreviewd, handed
from .process import MEMORY, proc_memory_mib, window
from .report import median, medians, raw
from .rig import FIXTURES, QUEUED, TONES

TAP_AT, TAP_SEARCH = 4, 6      # the tap section: the result tapped, the search's size
# How long the listener reads before the tap (BENCH_TAP_READ=0.3: a tap while the heads still arrive).
TAP_READ = float(os.environ.get("BENCH_TAP_READ", "2.5"))
START_ROWS = ["search -50", "search -40", "next -50", "next -40", "pause -50", "search handed"]

def measure(player_class, bins, api, server, sink, work, repeats):
    """The main rows: command → audible for start, next, prev and pause (and previewd's own clock), the
    auto-advance gap, CPU and wake-ups idle, paused and playing, and memory with QUEUED tracks queued."""
    rows = {k: [] for k in ["start", "next", "prev", "pause", "gap windows", "cpu s / 10 s", "cpu paused",
                            "wake-ups idle", "wake-ups paused", "wake-ups playing",
                            "start handed", "next handed", "prev handed"] + [f"{m} {n}" for n in QUEUED for m in MEMORY]}
    for _ in range(repeats):
        rec = Recorder(server, sink).flowing()   # until the monitor flows in real time (see the silence keeper)
        p = player_class(bins, api, server, sink, work)
        time.sleep(1)   # settled after start-up, nothing queued
        rows["wake-ups idle"].append(window(p.proc.pid)[1])
        t = time.monotonic(); p.start("long tones"); rows["start"].append(latency(rec, t, lambda w: tone_of(w) == 440))
        rows["start handed"].append(handed(p.status()))
        time.sleep(2)
        t = time.monotonic(); p.next(); rows["next"].append(latency(rec, t, lambda w: tone_of(w) == 660))
        rows["next handed"].append(handed(p.status()))   # asked once heard: the figure is the command's own
        time.sleep(2)
        t = time.monotonic(); p.prev(); rows["prev"].append(latency(rec, t, lambda w: tone_of(w) == 440))
        rows["prev handed"].append(handed(p.status()))
        time.sleep(1)
        t = time.monotonic(); p.pause(); rows["pause"].append(latency(rec, t, lambda w: rms(w) < SILENCE))
        p.resume()
        time.sleep(1)
        cpu, switches = window(p.proc.pid)
        rows["cpu s / 10 s"].append(cpu); rows["wake-ups playing"].append(switches)
        p.pause(); time.sleep(1)
        cpu, switches = window(p.proc.pid)
        rows["cpu paused"].append(cpu); rows["wake-ups paused"].append(switches)
        p.resume(); time.sleep(1)
        # Auto-advance: two 2 s tracks; count silent 10 ms windows between the first tone and the second.
        t = time.monotonic(); p.start("short tones")
        first = wait_for(rec, rec.index_at(t), lambda w: tone_of(w) == 770)
        second = wait_for(rec, first or rec.count(), lambda w: tone_of(w) == 990) if first is not None else None
        if first is not None and second is not None:
            rows["gap windows"].append(sum(1 for i in range(first, second, WINDOW) if rms(rec.window(i)) < SILENCE))
        p.stop(); rec.stop()
        # Memory: a fresh player per queue length, so the peak is that queue's alone.
        for n in QUEUED:
            p = player_class(bins, api, server, sink, work)
            p.start("long tones", limit=n); time.sleep(2); p.next(); time.sleep(8)
            for m, v in proc_memory_mib(p.proc.pid).items(): rows[f"{m} {n}"].append(v)
            p.stop()
    raw(f"{player_class.name} raw", rows)
    return medians(rows)

def measure_start(player_class, bins, api, server, sink, work, repeats):
    """The start rows: a fresh player per round, the onsets in 1 ms steps (`onset`)."""
    rows = {k: [] for k in START_ROWS}
    for _ in range(repeats):
        rec = Recorder(server, sink).flowing()
        p = player_class(bins, api, server, sink, work)
        time.sleep(1)
        t = time.monotonic(); p.start("long tones")
        rows["search -50"].append(onset(rec, t, -50)); rows["search -40"].append(onset(rec, t, -40))
        rows["search handed"].append(handed(p.status()))
        time.sleep(2)
        t = time.monotonic(); p.next()
        # the next track's onset: the first 1 ms window that is its tone's, by level once the old one is gone
        wait_for(rec, rec.index_at(t), lambda w: tone_of(w) == 660)
        mark = rec.index_at(t)
        rows["next -50"].append(next_onset(rec, mark, -50)); rows["next -40"].append(next_onset(rec, mark, -40))
        time.sleep(1)
        t = time.monotonic(); p.pause(); rows["pause -50"].append(onset(rec, t, -50, sounding=False))
        p.stop(); rec.stop()
    raw(f"{player_class.name} start raw", rows, 1)
    return medians(rows)

def measure_adds(player_class, bins, api, server, sink, work, repeats):
    """200 adds in one command list (`clear` and 200 `add`), the way a client adds a selection: their
    time on the held connection and, for previewd, the catalog calls they cost (`memory`'s
    catalogCalls): of tracks a search answered just before (seen), and on a fresh daemon the same
    ids never answered (unseen). MPD adds 200 local files."""
    rows = {"adds seen": [], "adds seen calls": [], "adds unseen": [], "adds unseen calls": []}
    for _ in range(repeats):
        for case in ("seen", "unseen"):
            if case == "unseen" and player_class is MPDReference: continue
            p = player_class(bins, api, server, sink, work)
            if player_class is MPDReference:
                files = sorted(f for f in os.listdir(FIXTURES) if f.endswith(".m4a"))
                uris = [f'"{f}"' for f in files]
            else:
                found = [l.split(": ", 1)[1] for l in p.mpd('search "(any contains \'long tones\')"') if l.startswith("file: ")]
                uris = list(dict.fromkeys(found))
                if case == "unseen":
                    p.stop(); p = player_class(bins, api, server, sink, work)
                calls = p.cmd("memory")["result"].get("catalogCalls")
            adds = [f"add {uris[i % len(uris)]}" for i in range(200)]
            t = time.monotonic(); p.mpd("clear", *adds); elapsed = (time.monotonic() - t) * 1000
            rows[f"adds {case}"].append(elapsed)
            if player_class is not MPDReference:
                rows[f"adds {case} calls"].append(p.cmd("memory")["result"].get("catalogCalls") - calls)
                queued = p.cmd("status")["result"]["queueLength"]
                if queued != 200: print(f"{player_class.name}: {queued} of 200 queued ({case})", file=sys.stderr)
            p.stop()
    raw(f"{player_class.name} adds raw", rows)
    return {k: statistics.median(vs) if vs else None for k, vs in rows.items()}

def measure_tap(player_class, bins, api, server, sink, work, repeats):
    """A search of TAP_SEARCH, TAP_READ s of reading, a tap on result TAP_AT, 2 s later `next`: command → audible."""
    rows = {"tap": [], "next": [], "tap handed": [], "next handed": []}
    for _ in range(repeats):
        rec = Recorder(server, sink).flowing()
        p = player_class(bins, api, server, sink, work)
        time.sleep(1)
        p.look("tap tones", TAP_SEARCH)
        time.sleep(TAP_READ)
        t = time.monotonic(); p.tap(TAP_AT)
        rows["tap"].append(latency(rec, t, lambda w: tone_of(w) == TONES[TAP_AT % 3]))
        rows["tap handed"].append(handed(p.status()))
        time.sleep(2)
        t = time.monotonic(); p.next()
        rows["next"].append(latency(rec, t, lambda w: tone_of(w) == TONES[(TAP_AT + 1) % 3]))
        rows["next handed"].append(handed(p.status()))
        p.stop(); rec.stop()
    raw(f"{player_class.name} tap raw", rows, 1)
    return medians(rows)

def heads_cost(player_class, bins, api, server, sink, work, shown):
    """A fresh previewd, a look of `shown` results (nothing plays), 3 s: the heads held and their
    bytes (all the preview bytes a look fetches), and previewd's anonymous memory."""
    p = player_class(bins, api, server, sink, work)
    time.sleep(1)
    p.look("tap tones", shown)
    time.sleep(3)
    memory = p.cmd("memory")["result"]
    heads = next((s for s in memory["stores"] if s["name"] == "heads"), {"entries": 0, "bytes": 0})
    p.stop()
    return {"heads": heads["entries"], "head bytes": heads.get("bytes") or 0, "anonymous": memory.get("anonymousBytes")}

def timeline(log_path):
    """The last start timeline in previewd's log: {step: (ms since the search, detail)}."""
    steps = {}
    with open(log_path, errors="replace") as f:
        for line in f:
            if "debug: start: " not in line: continue
            text = line.split("debug: start: ", 1)[1].rstrip("\n")
            name, rest = text[:22].strip(), text[22:].strip()
            if name == "search sent": steps = {}
            ms = float(rest.split(" ms", 1)[0].lstrip("+"))
            detail = rest.split(")", 1)[1].strip() if ")" in rest else ""
            steps[name] = (ms, detail)
    return steps

def rig_stats():
    """The network rig's counters (connections and requests per host)."""
    with open(os.environ["NETRIG_STATS"]) as f: return json.load(f)

def mpv_given_url(rec, bins, server, sink, work):
    """An idle mpv given the preview's URL (a new connection, as previewd's first search has): ms to audible."""
    m = NetworkMpv(bins, None, server, sink, work)
    time.sleep(1)
    t = time.monotonic(); m.cmd("loadfile", os.environ["NETRIG_CDN"] + "/previews/long-440.m4a")
    heard = latency(rec, t, lambda w: tone_of(w) == 440)
    m.stop()
    return heard

def probes_inner(repeats):
    """Inside the rig, for one probe case: cold starts (fresh daemons) and mpv; one JSON line on stdout."""
    bins, server, sink = os.environ["BENCH_BINS"], os.environ["PULSE_SERVER"], os.environ["BENCH_SINK"]
    work = tempfile.mkdtemp(prefix="previewd-bench-probe-")
    rows = {"cold": [], "cold -50": [], "handed": [], "mpv": [], "timeline": [], "cdn connections": [], "api requests": []}
    for _ in range(repeats):
        rec = Recorder(server, sink).flowing()
        stats = rig_stats()
        before = len(stats.get("cdn", {}).get("connections", []))
        api_before = len(stats.get("api", {}).get("requests", []))
        p = ProbedPreviewd(bins, None, server, sink, work)
        # Activated, the connection just made started previewd, and the search is waiting (BENCH_SEARCH_LATE:
        # it comes that many seconds later, the probes under way or over).
        late = float(os.environ.get("BENCH_SEARCH_LATE") or 0)
        if not p.activated or late: time.sleep(late or 1)
        t = time.monotonic(); p.start("long tones")
        rows["cold"].append(latency(rec, t, lambda w: tone_of(w) == 440)); rows["cold -50"].append(onset(rec, t, -50))
        rows["handed"].append(handed(p.status()))
        time.sleep(1)
        p.stop()
        rows["timeline"].append(timeline(p.log_path))
        stats = rig_stats()
        cdn, api = stats.get("cdn", {}), stats.get("api", {})
        rows["api requests"].append([dict(r, accepted=api["connections"][r["connection"]]) for r in api.get("requests", [])[api_before:]])
        rows["cdn connections"].append([dict(c, number=i) for i, c in enumerate(cdn.get("connections", [])) if i >= before])
        if os.environ.get("BENCH_WITH_MPV"): rows["mpv"].append(mpv_given_url(rec, bins, server, sink, work))
        rec.stop()
    print("probes raw: " + json.dumps(rows), file=sys.stderr)
    steps = {}
    for t in rows["timeline"]:
        for name, (ms, detail) in t.items(): steps.setdefault(name, []).append((ms, detail))
    print(json.dumps({"cold": median(rows["cold"]), "cold -50": median(rows["cold -50"]), "handed": median(rows["handed"]),
                      "mpv": median(rows["mpv"]), "cold rounds": rows["cold"],
                      "timeline": {n: (statistics.median(m for m, _ in v), v[-1][1]) for n, v in steps.items()}}))

def open_connections():
    stats = rig_stats()
    return sum(stats.get(host, {}).get("open", 0) for host in ("api", "cdn"))

def network_inner(repeats):
    """Inside the rig: one JSON line of medians on stdout."""
    bins, server, sink = os.environ["BENCH_BINS"], os.environ["PULSE_SERVER"], os.environ["BENCH_SINK"]
    work = tempfile.mkdtemp(prefix="previewd-bench-net-")
    rows = {k: [] for k in ["cold", "cold handed", "warm", "warm handed", "next", "prev", "mpv", "open connections", "wake-ups paused", "wake-ups stopped"]}
    for _ in range(repeats):
        rec = Recorder(server, sink).flowing()
        p = NetworkPreviewd(bins, None, server, sink, work)
        time.sleep(1)
        t = time.monotonic(); p.start("long tones"); rows["cold"].append(latency(rec, t, lambda w: tone_of(w) == 440))
        rows["cold handed"].append(handed(p.status()))
        time.sleep(3)
        t = time.monotonic(); p.start("second set"); rows["warm"].append(latency(rec, t, lambda w: tone_of(w) == 660))
        rows["warm handed"].append(handed(p.status()))
        time.sleep(2)
        t = time.monotonic(); p.next(); rows["next"].append(latency(rec, t, lambda w: tone_of(w) == 880))
        time.sleep(2)
        t = time.monotonic(); p.prev(); rows["prev"].append(latency(rec, t, lambda w: tone_of(w) == 660))
        time.sleep(1)
        p.pause(); time.sleep(1)
        rows["open connections"].append(open_connections())
        rows["wake-ups paused"].append(window(p.proc.pid)[1])
        p.cmd("stop"); time.sleep(1)
        rows["wake-ups stopped"].append(window(p.proc.pid)[1])
        p.stop()
        rows["mpv"].append(mpv_given_url(rec, bins, server, sink, work))
        rec.stop()
    print("network raw: " + json.dumps(rows), file=sys.stderr)
    print(json.dumps(medians(rows)))
