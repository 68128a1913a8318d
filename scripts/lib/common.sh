# Shared by scripts/test, scripts/demo, scripts/package and the benchmarks: installs what the project needs and
# starts a private PulseAudio server with a null sink when none is reachable. Source it; don't run it.

# Debian's packages, by name. What the demo and an install need: the build's -dev packages (the C
# libraries previewd links, shared) and a sound server with its tools. Nothing else goes here.
PREVIEWD_DEMO_PACKAGES=(libavformat-dev libavcodec-dev libswresample-dev libswscale-dev libavutil-dev libpulse-dev
                        libasound2-dev libcurl4-openssl-dev libebur128-dev libsystemd-dev libstdc++-12-dev pkg-config
                        pulseaudio pulseaudio-utils)
# The test rig's (scripts/test, the sanitizer pass, the benchmarks): browsers, MPD clients, snapserver,
# PipeWire... One line per tool's group: add a line, do not edit another's.
PREVIEWD_APT_PACKAGES=(libasound2-plugins ffmpeg openssl ca-certificates
                       systemd man-db bash-completion dbus-daemon playerctl snapserver snapclient pipewire wireplumber pipewire-pulse tmux
                       python3 iproute2 util-linux mpv libxml2-utils mpc python3-mpd ncmpcpp ncmpc
                       python3-musicbrainzngs python3-dbus python3-gi
                       zbar-tools)
# The MPD front-end's references: Debian's MPD answers the same cases beside previewd (the ACK audit), and
# mpdscribble reads its client-to-client messages.
PREVIEWD_APT_PACKAGES+=(mpd mpdscribble)
# previewd-web's browser tests (Web/Tests/test_browser.py): Debian's chromium driven by selenium.
PREVIEWD_APT_PACKAGES+=(chromium chromium-driver python3-selenium)
PREVIEWD_APT_PACKAGES+=(webkit2gtk-driver gir1.2-webkit2-4.1 xvfb)   # and WebKit (Safari's engine), under Xvfb
# WebKitGTK playing a preview in the page ("Play here"): GStreamer's pulsesink and an AAC decoder.
PREVIEWD_APT_PACKAGES+=(gstreamer1.0-pulseaudio gstreamer1.0-libav)
# previewd-web's build (its pairing QR code): scripts/test and scripts/package build it, the demo does not.
PREVIEWD_APT_PACKAGES+=(libqrencode-dev)
# scripts/package and its test (scripts/test --package): debhelper, lintian, a fresh Debian root.
PREVIEWD_PACKAGE_PACKAGES=(libqrencode-dev debhelper chrpath lintian mmdebstrap)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Phases and their times: `phase NAME` ends the running phase (its time is said) and starts NAME;
# `phase_summary` ends the last one and prints them all on one line (CI keeps only the end of the
# output, so the summary is printed last).
PREVIEWD_PHASES=()
PREVIEWD_PHASE=""
PREVIEWD_PHASE_START=$SECONDS
phase() {
  local now=$SECONDS
  if [ -n "$PREVIEWD_PHASE" ]; then
    PREVIEWD_PHASES+=("$PREVIEWD_PHASE $((now - PREVIEWD_PHASE_START)) s")
    say "$PREVIEWD_PHASE took $((now - PREVIEWD_PHASE_START)) s"
  fi
  PREVIEWD_PHASE=$1
  PREVIEWD_PHASE_START=$now
}
phase_summary() {   # phase_summary [NOTE]: NOTE (e.g. what ran in the background) goes in brackets
  phase ""
  local joined
  joined=$(printf '%s, ' "${PREVIEWD_PHASES[@]}")
  echo "phases: ${joined%, }${1:+ ($1)}; total $SECONDS s"
}

# Swift lives in /opt/swift on the project's machines; put it on PATH when it is not there.
ensure_swift() {
  if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH=/opt/swift/usr/bin:$PATH
  fi
  command -v swift >/dev/null 2>&1 || { echo "swift not found (expected /opt/swift/usr/bin)" >&2; exit 1; }
}

# Idempotent: installs only the Debian packages that are missing: the demo's and the test rig's, and
# any named.
install_deps() {
  install_demo_deps "${PREVIEWD_APT_PACKAGES[@]}" "$@"
}

# The demo's packages only (and any named): what building and playing need, no test rig.
install_demo_deps() {
  local missing=() pkg
  for pkg in "${PREVIEWD_DEMO_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The one release build, the README's: the Swift runtime linked in, Debian's C libraries shared.
# Sets PREVIEWD_BIN_DIR to the folder of its executables (the end-to-end tests run those).
build_release() {
  say "building (release: swift build -c release --static-swift-stdlib)"
  swift build -c release --static-swift-stdlib "$@"
  PREVIEWD_BIN_DIR=$(swift build -c release --static-swift-stdlib --show-bin-path)
  export PREVIEWD_BIN_DIR
}

# previewd-web's release build (its own package, Web/); prints the folder of its executable. Only
# its product: a bare `swift build` there builds every product of every dependency too, 135 modules
# where previewd-web links 58 (swift-crypto's own BoringSSL, X509, HTTP/2, an HTTP client, the test
# kits, previewd's engine again).
build_web() {
  (cd Web && swift build -c release --static-swift-stdlib --product previewd-web >&2 && swift build -c release --static-swift-stdlib --show-bin-path)
}

# The tests' build under a sanitizer (address or thread), in .build-<kind> beside the normal one.
build_sanitized() {
  swift build --build-tests --sanitize="$1" --build-path ".build-$1"
}

# swift-argument-parser's manual generator, built beside the release binaries (scripts/install
# writes the man pages with it; the install test needs it there).
build_manual_tool() {
  swift build -c release --static-swift-stdlib --product generate-manual >/dev/null
}

# Uses the PulseAudio server libpulse finds if one answers; otherwise starts a private one (a null
# sink, anonymous auth on a socket in a temp dir) and exports PULSE_SERVER. It is stopped by
# stop_private_pulse (call it from an EXIT trap).
PREVIEWD_PULSE_PID=""
PREVIEWD_PULSE_DIR=""
ensure_pulse() {
  if [ -z "${PREVIEWD_PRIVATE_PULSE:-}" ] && pactl info >/dev/null 2>&1; then
    say "using the PulseAudio server at $(pactl info | sed -n 's/^Server String: //p')"
    return 0
  fi
  PREVIEWD_PULSE_DIR=$(mktemp -d /tmp/previewd-pulse.XXXXXX)
  say "starting a private PulseAudio server in $PREVIEWD_PULSE_DIR"
  # HOME and XDG_* point into the temp dir so nothing of the user's is read or written.
  HOME=$PREVIEWD_PULSE_DIR XDG_RUNTIME_DIR=$PREVIEWD_PULSE_DIR XDG_CONFIG_HOME=$PREVIEWD_PULSE_DIR \
    pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no --disable-shm=yes \
      --log-target=file:"$PREVIEWD_PULSE_DIR/pulse.log" \
      -L "module-null-sink sink_name=previewd_null sink_properties=device.description=previewd-null" \
      -L "module-native-protocol-unix auth-anonymous=1 socket=$PREVIEWD_PULSE_DIR/native" \
      </dev/null >/dev/null 2>&1 &
  PREVIEWD_PULSE_PID=$!
  export PULSE_SERVER="unix:$PREVIEWD_PULSE_DIR/native"
  local i
  for i in $(seq 1 100); do
    pactl info >/dev/null 2>&1 && { say "PulseAudio ready (PULSE_SERVER=$PULSE_SERVER)"; return 0; }
    kill -0 "$PREVIEWD_PULSE_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "PulseAudio did not start; its log:" >&2
  cat "$PREVIEWD_PULSE_DIR/pulse.log" >&2 || true
  exit 1
}

stop_private_pulse() {
  if [ -n "$PREVIEWD_PULSE_PID" ]; then
    kill "$PREVIEWD_PULSE_PID" 2>/dev/null || true
    wait "$PREVIEWD_PULSE_PID" 2>/dev/null || true
    PREVIEWD_PULSE_PID=""
  fi
  [ -n "$PREVIEWD_PULSE_DIR" ] && rm -rf "$PREVIEWD_PULSE_DIR"
  PREVIEWD_PULSE_DIR=""
}

# The 30-second clip the benchmarks decode: 44.1 kHz stereo AAC at 256 kbps, like an iTunes preview,
# with a 440 Hz tone on the left and 660 Hz on the right. Made once, kept out of git.
PREVIEWD_BENCH_CLIP="$(pwd)/Benchmarks/.build-fixtures/clip-30s-256k.m4a"
make_bench_clip() {
  [ -s "$PREVIEWD_BENCH_CLIP" ] && return 0
  mkdir -p "$(dirname "$PREVIEWD_BENCH_CLIP")"
  ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=30" \
    -f lavfi -i "sine=frequency=660:sample_rate=44100:duration=30" \
    -filter_complex "[0:a][1:a]join=inputs=2:channel_layout=stereo[a]" -map "[a]" \
    -c:a aac -b:a 256k -movflags +faststart "$PREVIEWD_BENCH_CLIP"
}
