"""benchkit: what previewd's Python scripts (bench-compare, bench-outputs, bench-web, bench-state,
bench-decode, soak) and previewd-web's tests share, one file per part:

  rig       the release build, a private PulseAudio with a null sink, the iTunes stand-in, free
            ports, the fixtures, and `Rig`, which sets them up for one run and takes them down;
  heard     what is heard: the null sink's monitor recorded, tone detection, latency and onsets;
  process   process figures read from /proc: CPU, wake-ups (context switches), memory;
  players   the players compared, each driven the same way: previewd, mpv, MPD;
  rounds    the rounds a player is put through (bench-compare's measures), their medians;
  report    medians, the tables' labels and figures, and docs/PERFORMANCE.md's sections;
  compare   bench-compare's sections, each one run of the rig with its table and its doc.

A script in scripts/ imports them as `from benchkit.rig import Rig` (its folder is on sys.path).
Importing does no work and reads no arguments: the scripts parse their own command lines.
"""
