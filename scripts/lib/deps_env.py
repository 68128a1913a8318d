"""For the Python scripts that build previewd: the same choice of FFmpeg and libcurl as the shell
scripts (use_minimal_deps in common.sh), put into this process's environment before any `swift build`."""
import os, subprocess

def use_minimal_deps(root):
    out = subprocess.run(["bash", "-c", "source scripts/lib/common.sh && use_minimal_deps >&2 && "
                          "echo \"${PREVIEWD_FFMPEG_PREFIX:-}\" && echo \"${PREVIEWD_CURL_PREFIX:-}\""], cwd=root,
                         check=True, stdout=subprocess.PIPE, text=True).stdout.splitlines()
    for name, value in zip(["PREVIEWD_FFMPEG_PREFIX", "PREVIEWD_CURL_PREFIX"], out):
        if value: os.environ[name] = value
        else: os.environ.pop(name, None)
