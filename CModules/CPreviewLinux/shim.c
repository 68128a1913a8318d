#include "CPreviewLinux.h"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <string.h>
#include <sys/socket.h>

int cpl_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int cpl_malloc_trim(void) { return malloc_trim(0); }

int cpl_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

void cpl_eventfd_signal(int fd) {
    uint64_t one = 1;
    (void)!write(fd, &one, sizeof one);   // only fails when the counter is full: it is signalled anyway
}

void cpl_eventfd_drain(int fd) {
    uint64_t count;
    (void)!read(fd, &count, sizeof count);
}

int cpl_termination_signalfd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

int cpl_read_signal(int fd) {
    struct signalfd_siginfo info;
    if (read(fd, &info, sizeof info) != (ssize_t)sizeof info) return 0;
    return (int)info.ssi_signo;
}

void cpl_set_thread_name(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = '\0';
    pthread_setname_np(pthread_self(), shortened);
}

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

static _Thread_local int thread_quiet;

void cpl_set_thread_quiet(int quiet) { thread_quiet = quiet; }

int cpl_thread_quiet(void) { return thread_quiet; }

static _Thread_local char last_line[256];
static _Thread_local unsigned long repeats;

int cpl_log_once(const char *line, unsigned long *suppressed) {
    if (strncmp(line, last_line, sizeof last_line - 1) == 0) { repeats++; return 0; }
    strncpy(last_line, line, sizeof last_line - 1);
    *suppressed = repeats;
    repeats = 0;
    return 1;
}
