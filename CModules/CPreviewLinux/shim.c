#include "CPreviewLinux.h"

#include <malloc.h>
#include <string.h>
#include <sys/socket.h>

int cpl_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int cpl_malloc_trim(void) { return malloc_trim(0); }

int cpl_peer_uid(int fd, uid_t *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

static _Thread_local char thread_label[96];

void cpl_set_thread_label(const char *label) {
    if (label == NULL) { thread_label[0] = '\0'; return; }
    strncpy(thread_label, label, sizeof thread_label - 1);
    thread_label[sizeof thread_label - 1] = '\0';
}

const char *cpl_thread_label(void) { return thread_label; }

static _Thread_local char last_line[256];
static _Thread_local unsigned long repeats;

int cpl_log_once(const char *line, unsigned long *suppressed) {
    if (strncmp(line, last_line, sizeof last_line - 1) == 0) { repeats++; return 0; }
    strncpy(last_line, line, sizeof last_line - 1);
    *suppressed = repeats;
    repeats = 0;
    return 1;
}
