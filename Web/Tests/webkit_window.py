#!/usr/bin/python3
"""A WebKitGTK window that holds only a web view, for WebKitWebDriver (webkitgtk:browserOptions.binary):
no toolbar, so the page gets exactly the size asked for (MiniBrowser's toolbar keeps a page at least
447 px wide). WebKitWebDriver starts it with `--automation` and the address of its inspector server in
the environment; WebKit does the rest once automation is allowed here.

WebKitGTK gives a program no console messages, so a script of the window's own (a user script, which
the page's Content-Security-Policy does not govern) notes in `window.__problems`, from before the page's
first line runs, every CSP violation and every uncaught script error, for the tests to read.

    webkit_window.py --automation --size=390x844 [--dark]
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402


WATCH = """
window.__problems = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.__problems.push(`Content Security Policy: ${e.violatedDirective} refused ${e.blockedURI || 'inline'}`));
window.addEventListener('error', (e) => { if (e instanceof ErrorEvent) window.__problems.push(`error: ${e.message}`); });
"""


def main(argv):
    width, height = 390, 844
    dark = False
    for arg in argv[1:]:
        if arg.startswith("--size="):
            width, height = (int(n) for n in arg.split("=", 1)[1].split("x"))
        elif arg == "--dark":
            dark = True
    if dark:
        Gtk.Settings.get_default().set_property("gtk-application-prefer-dark-theme", True)
    # An ephemeral context: no cookie, cache or local storage outlives the run or leaks into the next.
    context = WebKit2.WebContext.new_ephemeral()
    context.set_automation_allowed(True)
    windows = []
    watch = WebKit2.UserScript.new(WATCH, WebKit2.UserContentInjectedFrames.ALL_FRAMES,
                                   WebKit2.UserScriptInjectionTime.START, None, None)

    def create_web_view(_session):
        content = WebKit2.UserContentManager()
        content.add_script(watch)
        view = WebKit2.WebView(web_context=context, user_content_manager=content, is_controlled_by_automation=True)
        window = Gtk.Window()
        window.set_decorated(False)
        window.set_default_size(width, height)
        window.add(view)
        window.connect("destroy", lambda _: windows.remove(window) if window in windows else None)
        view.connect("close", lambda _: window.destroy())
        window.show_all()
        windows.append(window)
        return view

    def automation_started(_context, session):
        info = WebKit2.ApplicationInfo.new()
        info.set_name("webkit_window")
        info.set_version(1, 0, 0)
        session.set_application_info(info)
        session.connect("create-web-view", create_web_view)

    context.connect("automation-started", automation_started)
    Gtk.main()
    return 0


if __name__ == "__main__":
    Gtk.init(sys.argv)
    sys.exit(main(sys.argv))
