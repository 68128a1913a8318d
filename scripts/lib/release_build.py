"""For the Python scripts: the one release build the README names (swift build -c release
--static-swift-stdlib, the Swift runtime linked in, Debian's C libraries shared); returns the folder
of its executables. `common` runs functions of scripts/lib/common.sh (install_deps, make_bench_clip),
so the shell and Python scripts share one definition of each."""
import subprocess

RELEASE = ["swift", "build", "-c", "release", "--static-swift-stdlib"]

def build_release(root, *extra):
    subprocess.run(RELEASE + list(extra), cwd=root, check=True, stdout=subprocess.DEVNULL)
    return subprocess.run(RELEASE + ["--show-bin-path"], cwd=root, check=True, stdout=subprocess.PIPE,
                          text=True).stdout.strip()

def common(root, script):
    """Runs `script` (e.g. "install_deps mpv") in bash with scripts/lib/common.sh sourced, from `root`."""
    subprocess.run(["bash", "-c", "source scripts/lib/common.sh && " + script], cwd=root, check=True)
