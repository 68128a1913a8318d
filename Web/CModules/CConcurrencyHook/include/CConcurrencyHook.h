#ifndef CCONCURRENCYHOOK_H
#define CCONCURRENCYHOOK_H
// Swift Concurrency's global-executor hooks (swift/include/swift/Runtime/Concurrency.h, the
// "swift_task_enqueueGlobal*_hook" variables). With the runtime linked in statically they are
// hidden symbols that dlsym cannot find, so previewd-web sets them from C, in the same link.
// Jobs are passed as opaque pointers (a Swift UnownedJob has the same layout).

typedef void (*cch_original)(void *job);
typedef void (*cch_enqueue)(void *job, cch_original original);
typedef void (*cch_original_delay)(unsigned long long delay, void *job);
typedef void (*cch_enqueue_delay)(unsigned long long delay, void *job, cch_original_delay original);
typedef void (*cch_original_deadline)(long long sec, long long nsec, long long tsec, long long tnsec, int clock, void *job);
typedef void (*cch_enqueue_deadline)(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                     void *job, cch_original_deadline original);

/// Routes every job meant for the global executor (now, after `delay` ns, or at a deadline on
/// `clock`: 1 continuous, 2 suspending) to the given functions.
void cch_install(cch_enqueue now, cch_enqueue_delay later, cch_enqueue_deadline at);

#endif
