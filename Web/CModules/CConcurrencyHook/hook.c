#include "CConcurrencyHook.h"

extern cch_enqueue swift_task_enqueueGlobal_hook;
extern cch_enqueue_delay swift_task_enqueueGlobalWithDelay_hook;
extern cch_enqueue_deadline swift_task_enqueueGlobalWithDeadline_hook;

void cch_install(cch_enqueue now, cch_enqueue_delay later, cch_enqueue_deadline at) {
    swift_task_enqueueGlobal_hook = now;
    swift_task_enqueueGlobalWithDelay_hook = later;
    swift_task_enqueueGlobalWithDeadline_hook = at;
}
