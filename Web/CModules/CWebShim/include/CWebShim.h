#ifndef CWEBSHIM_H
#define CWEBSHIM_H
// What previewd-web's Swift cannot reach by itself: Swift Concurrency's executor hooks, and the
// peer credentials of a Unix socket (struct ucred, which glibc keeps behind _GNU_SOURCE).

/// The credentials SO_PEERCRED reads (struct ucred's layout).
typedef struct { int pid; unsigned int uid; unsigned int gid; } cws_ucred;

/// SO_PEERCRED, for NIO's getsockopt.
int cws_so_peercred(void);

// Swift Concurrency's global-executor hooks (swift/include/swift/Runtime/Concurrency.h, the
// "swift_task_enqueueGlobal*_hook" variables). With the runtime linked in statically they are
// hidden symbols that dlsym cannot find, so previewd-web sets them from C, in the same link.
// Jobs are passed as opaque pointers (a Swift UnownedJob has the same layout).

typedef void (*cws_original)(void *job);
typedef void (*cws_enqueue)(void *job, cws_original original);
typedef void (*cws_original_delay)(unsigned long long delay, void *job);
typedef void (*cws_enqueue_delay)(unsigned long long delay, void *job, cws_original_delay original);
typedef void (*cws_original_deadline)(long long sec, long long nsec, long long tsec, long long tnsec, int clock, void *job);
typedef void (*cws_enqueue_deadline)(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                     void *job, cws_original_deadline original);

/// Routes every job meant for the global executor (now, after `delay` ns, or at a deadline on
/// `clock`: 1 continuous, 2 suspending) to the given functions.
void cws_install(cws_enqueue now, cws_enqueue_delay later, cws_enqueue_deadline at);

#endif
