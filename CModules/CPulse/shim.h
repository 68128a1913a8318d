// libpulse's asynchronous API (threaded mainloop + stream), plus the macros Swift cannot import.
#ifndef CPULSE_SHIM_H
#define CPULSE_SHIM_H

#include <pulse/pulseaudio.h>
#include <pulse/thread-mainloop.h>

/// PA_CONTEXT_IS_GOOD(state): connecting or ready.
static inline int cpa_context_is_good(pa_context_state_t s) { return PA_CONTEXT_IS_GOOD(s); }
/// PA_STREAM_IS_GOOD(state): creating or ready.
static inline int cpa_stream_is_good(pa_stream_state_t s) { return PA_STREAM_IS_GOOD(s); }
/// PA_VOLUME_NORM: 100 %.
static inline pa_volume_t cpa_volume_norm(void) { return PA_VOLUME_NORM; }
/// The float32 sample format in this machine's byte order (PA_SAMPLE_FLOAT32NE is a macro).
static inline pa_sample_format_t cpa_sample_float32ne(void) { return PA_SAMPLE_FLOAT32NE; }

#endif
