#include <sys/socket.h>
#include <assert.h>
#include "CWebShim.h"

_Static_assert(sizeof(cws_ucred) == sizeof(struct ucred), "cws_ucred mirrors struct ucred");

int cws_so_peercred(void) { return SO_PEERCRED; }

extern cws_enqueue swift_task_enqueueGlobal_hook;
extern cws_enqueue_delay swift_task_enqueueGlobalWithDelay_hook;
extern cws_enqueue_deadline swift_task_enqueueGlobalWithDeadline_hook;

void cws_install(cws_enqueue now, cws_enqueue_delay later, cws_enqueue_deadline at) {
    swift_task_enqueueGlobal_hook = now;
    swift_task_enqueueGlobalWithDelay_hook = later;
    swift_task_enqueueGlobalWithDeadline_hook = at;
}
