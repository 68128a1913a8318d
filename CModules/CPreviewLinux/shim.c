#include "CPreviewLinux.h"

#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <spawn.h>
#include <fcntl.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <string.h>
#include <sys/socket.h>

int cpl_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int cpl_malloc_trim(void) { return malloc_trim(0); }

int cpl_set_pipe_size(int fd, int bytes) { return fcntl(fd, F_SETPIPE_SZ, bytes); }

short cpl_pollrdhup(void) { return POLLRDHUP; }

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

void cpl_lower_thread_priority(void) {
    setpriority(PRIO_PROCESS, (id_t)gettid(), 10);
}

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

int cpl_spawn(const char *program, char *const argv[], char *const envp[], int output, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, output, 1);
    posix_spawn_file_actions_adddup2(&actions, output, 2);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    posix_spawnattr_init(&attributes);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGINT);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSID);
    int result = posix_spawnp(pid, program, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}

int cpl_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}
