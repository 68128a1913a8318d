"""For the Python scripts: the one release build the README names (swift build -c release
--static-swift-stdlib, the Swift runtime linked in, Debian's C libraries shared); returns the folder
of its executables."""
import subprocess

RELEASE = ["swift", "build", "-c", "release", "--static-swift-stdlib"]

def build_release(root, *extra):
    subprocess.run(RELEASE + list(extra), cwd=root, check=True, stdout=subprocess.DEVNULL)
    return subprocess.run(RELEASE + ["--show-bin-path"], cwd=root, check=True, stdout=subprocess.PIPE,
                          text=True).stdout.strip()
