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
#include <termios.h>
#include <errno.h>

int cpl_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int cpl_malloc_trim(void) { return malloc_trim(0); }

int cpl_set_pipe_size(int fd, int bytes) { return fcntl(fd, F_SETPIPE_SZ, bytes); }

int cpl_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

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

/// Blocks `signals` in the calling thread and returns a non-blocking signalfd reading them.
static int blocked_signalfd(const int *signals, int count) {
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) sigaddset(&set, signals[i]);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

int cpl_termination_signalfd(void) {
    static const int signals[] = {SIGTERM, SIGINT};
    return blocked_signalfd(signals, 2);
}

int cpl_terminal_signalfd(void) {
    static const int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGWINCH, SIGTSTP};
    return blocked_signalfd(signals, 5);
}

// The terminal a full-screen view took over: its settings before, and what puts its screen back.
static int guarded_fd = -1;
static struct termios guarded_settings;
static char guarded_restore[64];
static size_t guarded_restore_length;

void cpl_terminal_restore(void) {
    if (guarded_fd < 0) return;
    ssize_t ignored = write(guarded_fd, guarded_restore, guarded_restore_length);
    (void)ignored;
    tcsetattr(guarded_fd, TCSAFLUSH, &guarded_settings);
    guarded_fd = -1;
}

/// A crash of the view: the terminal is put back (write and tcsetattr are async-signal-safe), then
/// the signal is raised again with its default action (SA_RESETHAND), so the process still dies of it.
static void restore_on_crash(int signo) {
    cpl_terminal_restore();
    raise(signo);
}

int cpl_terminal_raw(int fd, const char *restore) {
    struct termios settings;
    if (tcgetattr(fd, &settings) != 0) return -1;
    size_t length = strlen(restore);
    if (length >= sizeof guarded_restore) { errno = EINVAL; return -1; }
    memcpy(guarded_restore, restore, length);
    guarded_restore_length = length;
    guarded_settings = settings;
    guarded_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = restore_on_crash;
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) sigaction(crashes[i], &action, NULL);
    // Keys one by one, unechoed; Ctrl-C still raises SIGINT (read from the signalfd).
    settings.c_lflag &= ~(tcflag_t)(ICANON | ECHO | IEXTEN);
    settings.c_iflag &= ~(tcflag_t)(IXON | ICRNL);
    settings.c_cc[VMIN] = 1;
    settings.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSAFLUSH, &settings);
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
