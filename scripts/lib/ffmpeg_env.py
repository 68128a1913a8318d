"""For the Python scripts that build previewd: the same FFmpeg choice as the shell scripts
(use_minimal_ffmpeg in common.sh), put into this process's environment before any `swift build`."""
import os, subprocess

def use_minimal_ffmpeg(root):
    prefix = subprocess.run(["bash", "-c", "source scripts/lib/common.sh && use_minimal_ffmpeg >&2 && "
                             "echo \"${PREVIEWD_FFMPEG_PREFIX:-}\""], cwd=root, check=True,
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    if prefix: os.environ["PREVIEWD_FFMPEG_PREFIX"] = prefix
    else: os.environ.pop("PREVIEWD_FFMPEG_PREFIX", None)
