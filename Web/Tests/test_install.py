"""scripts/install with previewd-web, into a DESTDIR as a packager runs it: the binary, its man page
(from the same --help), completions and the socket-activated user units; --uninstall takes exactly
those away again."""

import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WEB_FILES = ["bin/previewd-web", "share/man/man1/previewd-web.1", "share/bash-completion/completions/previewd-web",
             "share/zsh/site-functions/_previewd-web", "share/fish/vendor_completions.d/previewd-web.fish",
             "lib/systemd/user/previewd-web.service", "lib/systemd/user/previewd-web.socket"]


class InstallTests(unittest.TestCase):
    def setUp(self):
        self.bins = os.environ.get("PREVIEWD_BIN_DIR", "")
        self.web_bins = os.environ.get("PREVIEWD_WEB_BIN_DIR", "")
        if not os.path.exists(os.path.join(self.bins, "generate-manual")):
            self.skipTest("no generate-manual beside the release binaries (scripts/test builds it)")
        self.destdir = tempfile.mkdtemp(prefix="previewd-web-install-")
        self.addCleanup(shutil.rmtree, self.destdir, True)

    def install(self, *extra):
        return subprocess.run(["bash", os.path.join(ROOT, "scripts/install"), "--prefix", "/usr", "--bin-dir", self.bins,
                               "--web-bin-dir", self.web_bins, *extra],
                              env=dict(os.environ, DESTDIR=self.destdir), capture_output=True, text=True, timeout=120)

    def test_installs_previewd_web_working_and_uninstalls_exactly_that(self):
        first = self.install()
        self.assertEqual(first.returncode, 0, first.stderr)
        prefix = self.destdir + "/usr/"
        for name in WEB_FILES:
            self.assertTrue(os.path.isfile(prefix + name), name)

        page = subprocess.run(["man", "-l", prefix + "share/man/man1/previewd-web.1"], capture_output=True, text=True,
                              env={"MANWIDTH": "100", "PATH": "/usr/bin:/bin"})
        self.assertEqual(page.returncode, 0)
        self.assertEqual(page.stderr, "", "renders cleanly")
        for word in ["--listen", "--socket", "--pair", "--revoke", "--tls-cert", "--tls-key", "--allow-host", "web-token"]:
            self.assertIn(word, page.stdout, f"previewd-web(1) lacks {word}")

        completion = subprocess.run(["bash", "-c", f"source {prefix}share/bash-completion/completions/previewd-web && complete -p previewd-web"],
                                    capture_output=True, text=True)
        self.assertEqual(completion.returncode, 0, completion.stderr)
        with open(prefix + "lib/systemd/user/previewd-web.service") as f:
            service = f.read()
        self.assertIn("ExecStart=/usr/bin/previewd-web", service, "the unit names the prefix, not DESTDIR")
        self.assertIn("Requires=previewd-web.socket", service)
        with open(prefix + "lib/systemd/user/previewd-web.socket") as f:
            self.assertIn("ListenStream=127.0.0.1:8765", f.read(), "loopback unless the user says otherwise")

        removed = self.install("--uninstall")
        self.assertEqual(removed.returncode, 0, removed.stderr)
        left = [os.path.join(d, f) for d, _, files in os.walk(self.destdir) for f in files]
        self.assertEqual(left, [], "uninstall removes exactly what install put there")


if __name__ == "__main__":
    unittest.main()
