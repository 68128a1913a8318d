// libsystemd (Debian's libsystemd-dev, shared): what previewd uses of <systemd/sd-daemon.h>.
// Declared here rather than included: that header pulls in <sys/socket.h>, whose constants
// (SOCK_STREAM, …) this module would then own, hiding them from Swift's Glibc module.
#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H

#include <stddef.h>

/// The number of sockets systemd passed (LISTEN_FDS, checked against LISTEN_PID), from descriptor
/// 3 on; with `unset_environment`, the variables are removed. A negative errno on error.
int sd_listen_fds(int unset_environment);
/// 1 when `fd` is a Unix socket of `type` (listening, when `listening` > 0); 0 when not, < 0 on error.
int sd_is_socket_unix(int fd, int type, int listening, const char *path, size_t length);

/// SD_LISTEN_FDS_START: the first descriptor systemd passes.
static inline int csd_listen_fds_start(void) { return 3; }

#endif
