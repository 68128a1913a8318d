// libasound's PCM and simple mixer API, plus what Swift cannot write (a variadic error handler).
#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H

#include <alsa/asoundlib.h>

static void calsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// alsa-lib prints its own errors on stderr; previewd reports them once, in its own words.
static inline void calsa_quiet_errors(void) { snd_lib_error_set_handler(calsa_ignore_error); }

#endif
