"""The two engines the browser tests drive through selenium, both Debian's: Chromium (headless, through
chromedriver) and WebKit (WebKitGTK through WebKitWebDriver, in a window that holds only the web view,
webkit_window.py, on an X server of the tests' own, Xvfb). WebKit is Safari's engine: about half of the
phones that open the remote."""

import glob
import os
import subprocess
from pathlib import Path

from harness import TIMEOUT, Process, RigError

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as ChromeService
    from selenium.webdriver.webkitgtk.options import Options as WebKitOptions
except ImportError:  # said by missing()
    webdriver = None

WINDOW = Path(__file__).resolve().parent / "webkit_window.py"
# What each engine needs, as a path (a glob) and the Debian package that brings it.
NEEDS = {
    "chromium": [("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver")],
    "webkit": [("/usr/bin/WebKitWebDriver", "webkit2gtk-driver"), ("/usr/bin/Xvfb", "xvfb"),
               ("/usr/lib/*/girepository-1.0/WebKit2-4.1.typelib", "gir1.2-webkit2-4.1")],
}


def missing(engine):
    """Why `engine` cannot run here (the Debian package to install), or None."""
    if not webdriver:
        return "python3-selenium not installed"
    for pattern, package in NEEDS[engine]:
        if not glob.glob(pattern):
            return f"{pattern} not found (apt-get install {package})"
    return None


class Xvfb(Process):
    """An X server of the tests' own (no window manager: a window gets exactly the size it asks for);
    it picks a free display number and says it (-displayfd)."""

    def __init__(self, folder):
        read, write = os.pipe()
        super().__init__(["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x1000x24", "-nolisten", "tcp",
                          "-noreset"], folder, "xvfb", pass_fds=(write,))
        os.close(write)
        with os.fdopen(read) as said:
            number = said.readline().strip()   # written once the server takes connections
        if not number.isdigit():
            self.stop()
            raise RigError(f"Xvfb did not start: {self.said()}")
        self.display = f":{number}"


def start_chromium(width, height, audible=False):
    """Chromium at `width` × `height`; muted unless `audible` (the tests that listen to the page: it plays
    into PulseAudio's sink named by $PULSE_SINK on $PULSE_SERVER, as the caller's environment says)."""
    options = webdriver.ChromeOptions()
    if not audible:
        options.add_argument("--mute-audio")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     f"--window-size={width},{height}", "--disable-extensions", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-default-apps", "--disable-domain-reliability", "--no-pings"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=ChromeService("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


def start_webkit(width, height, display, log_path):
    """WebKitWebDriver with webkit_window.py as its browser on `display`; the driver's and the
    browser's output (the page's console among it) go to `log_path`."""
    options = WebKitOptions()
    options.binary_location = str(WINDOW)
    options.add_argument(f"--size={width}x{height}")
    previous = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display   # the driver starts the browser with its own environment
    try:
        return webdriver.WebKitGTK(executable_path="/usr/bin/WebKitWebDriver", options=options,
                                   desired_capabilities={"browserName": "webkit_window"},
                                   service_log_path=str(log_path))
    finally:
        if previous is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = previous


def x_clipboard(display):
    """The text on the X server's clipboard (what a copy in the WebKit window put there), or None."""
    script = ("import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk, Gdk; "
              "t = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).wait_for_text(); print(t if t is not None else '', end='')")
    result = subprocess.run(["/usr/bin/python3", "-c", script], env=dict(os.environ, DISPLAY=display),
                            capture_output=True, text=True, timeout=TIMEOUT)
    return result.stdout if result.returncode == 0 else None


def clear_x_clipboard(display):
    """Empties the X server's clipboard (a helper takes it and goes), so a copy that follows is seen."""
    script = ("import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk, Gdk; "
              "Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).set_text('', -1); Gdk.flush()")
    subprocess.run(["/usr/bin/python3", "-c", script], env=dict(os.environ, DISPLAY=display), capture_output=True,
                   timeout=TIMEOUT, check=True)
