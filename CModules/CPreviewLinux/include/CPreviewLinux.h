// What Swift's Glibc module does not offer previewd: glibc extras hidden behind _GNU_SOURCE or kept
// out of the module (malloc.h, struct ucred), and a per-thread label for FFmpeg's log lines. Built
// with _GNU_SOURCE (Package.swift), the way swift-nio's CNIOLinux is.
#ifndef CPREVIEWLINUX_H
#define CPREVIEWLINUX_H

#include <sys/types.h>
#include <sys/socket.h>

/// SOCK_STREAM, SOCK_NONBLOCK and SOCK_CLOEXEC as this module's own constants. The C library's
/// belong to whichever module of a compile job includes <sys/socket.h> first (CCurl's curl.h does),
/// and Swift hides them from the files of that job that do not import that module.
static const int CPL_SOCK_STREAM = SOCK_STREAM;
static const int CPL_SOCK_NONBLOCK = SOCK_NONBLOCK;
static const int CPL_SOCK_CLOEXEC = SOCK_CLOEXEC;

/// mallopt(M_MMAP_THRESHOLD, bytes): allocations of `bytes` and more get their own mapping, unmapped on free.
int cpl_set_mmap_threshold(int bytes);
/// malloc_trim(0): gives the heap's free pages back to the kernel.
int cpl_malloc_trim(void);

/// The uid of the process at the other end of the Unix socket `fd` (SO_PEERCRED); 0 on success, -1
/// with errno set otherwise.
int cpl_peer_uid(int fd, uid_t *uid);

/// fcntl(F_SETPIPE_SZ): sets the capacity of the pipe `fd`; the capacity set, or -1 with errno.
int cpl_set_pipe_size(int fd, int bytes);
/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC): a connection, non-blocking, not inherited.
int cpl_accept(int fd);
/// POLLRDHUP: poll's flag for a stream socket whose peer closed its end.
short cpl_pollrdhup(void);

/// A non-blocking, close-on-exec eventfd for waking a poll loop; -1 with errno on failure.
int cpl_eventfd(void);
/// Adds one to the eventfd's counter (wakes its poller); never blocks.
void cpl_eventfd_signal(int fd);
/// Reads and resets the eventfd's counter.
void cpl_eventfd_drain(int fd);

/// Blocks SIGTERM and SIGINT in the calling thread (threads started after it inherit the mask)
/// and returns a non-blocking signalfd that reads them; -1 with errno on failure.
int cpl_termination_signalfd(void);
/// The same for SIGTERM, SIGINT, SIGHUP, SIGWINCH and SIGTSTP: a full-screen terminal view's signals.
int cpl_terminal_signalfd(void);

/// Puts the terminal `fd` in raw mode (keys one by one, no echo; Ctrl-C still signals), keeping its
/// settings and `restore` (escape sequences that put its screen back, under 64 bytes) for
/// `cpl_terminal_restore`, which also runs if the process dies of SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
/// SIGABRT or SIGFPE. 0, or -1 with errno.
int cpl_terminal_raw(int fd, const char *restore);
/// Writes the restore sequence and puts the terminal's settings back; once (later calls do nothing).
void cpl_terminal_restore(void);

/// The number of the next signal waiting on the signalfd, or 0 when none waits.
int cpl_read_signal(int fd);

/// Names the calling thread as top and /proc/PID/task/*/comm show it (pthread_setname_np; the
/// kernel keeps 15 bytes).
void cpl_set_thread_name(const char *name);

/// Names the work this thread does, for log lines written on it (at most 95 bytes are kept); NULL clears it.
void cpl_set_thread_label(const char *label);
/// This thread's label, or "" when none was set.
const char *cpl_thread_label(void);

/// Runs the calling thread at nice 10: background work that must never delay playback.
void cpl_lower_thread_priority(void);

/// Nonzero: FFmpeg's log lines written on this thread are dropped (a decode that expects its input
/// to end mid-packet); 0 again to keep them.
void cpl_set_thread_quiet(int quiet);
int cpl_thread_quiet(void);

/// Starts `program` (found on PATH when it has no slash) with `argv` and `envp`, no shell: stdin
/// /dev/null, stdout and stderr into `output`, no other descriptor, no blocked or ignored signal
/// (previewd's threads block SIGTERM and SIGINT for its signalfd), in a session of its own. 0 or an
/// errno value.
int cpl_spawn(const char *program, char *const argv[], char *const envp[], int output, pid_t *pid);
/// A descriptor that becomes readable when process `pid` ends (pidfd_open), or -1.
int cpl_pidfd_open(pid_t pid);

/// 1 when `line` differs from the last line this thread passed here (it is then remembered, and
/// `*suppressed` is how many copies of the previous one returned 0); 0 for a repeat.
int cpl_log_once(const char *line, unsigned long *suppressed);

#endif
