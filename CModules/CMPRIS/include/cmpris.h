// MPRIS2 on the session bus through sd-bus (libsystemd, Debian's libsystemd-dev, shared): the
// vtables and the message building Swift cannot do (SD_BUS_* are macros, sd_bus_message_append is
// variadic). Swift decides every value; this file only serves them.
//
// Not thread-safe, like sd-bus itself: every call on one `cmpris` comes from the one thread that
// runs its loop (`cmpris_fd`, `cmpris_process`), and the command callback runs there too.
#ifndef CMPRIS_H
#define CMPRIS_H

#include <stdint.h>

/// One connection to the session bus with the player object exported.
typedef struct cmpris cmpris;

/// What a D-Bus client asked for (methods and property writes).
typedef enum {
    CMPRIS_PLAY, CMPRIS_PAUSE, CMPRIS_PLAY_PAUSE, CMPRIS_STOP, CMPRIS_NEXT, CMPRIS_PREVIOUS,
    CMPRIS_SEEK,          // integer: offset in µs
    CMPRIS_SET_POSITION,  // integer: position in µs (the track id was checked)
    CMPRIS_QUIT,
    CMPRIS_SET_LOOP,      // integer: 0 None, 1 Track, 2 Playlist
    CMPRIS_SET_SHUFFLE,   // integer: 0 or 1
    CMPRIS_SET_VOLUME,    // real: 0…1
} cmpris_command;

/// Called on the loop's thread for each command; `context` is what `cmpris_open` was given.
typedef void (*cmpris_command_handler)(void *context, cmpris_command command, int64_t integer, double real);

/// The Player interface's values other than Metadata and Position.
typedef struct {
    const char *playback_status;   // "Playing", "Paused" or "Stopped"
    const char *loop_status;       // "None", "Track" or "Playlist"
    int shuffle;
    double volume;                 // 0…1
    int can_go_next, can_go_previous, can_play, can_pause, can_seek;
} cmpris_status;

/// The current track; NULL strings and zero numbers are left out of the Metadata map. With no
/// track id the map is empty (nothing is current).
typedef struct {
    const char *track_id;          // an object path
    int64_t length_us;             // 0: unknown
    const char *art_url, *title, *artist, *album_artist, *album, *genre, *url, *content_created;
    int32_t track_number, disc_number;
} cmpris_metadata;

/// Connects to the session bus, exports /org/mpris/MediaPlayer2 and takes the name
/// org.mpris.MediaPlayer2.`name` (or `name`.instance<pid> when it is taken). NULL on failure, with
/// the reason in `error` (a static string) and `*code` a negative errno.
cmpris *cmpris_open(const char *name, cmpris_command_handler handler, void *context, const char **error, int *code);
/// Releases the name and closes the connection.
void cmpris_close(cmpris *m);
/// The bus name taken (valid until close).
const char *cmpris_bus_name(const cmpris *m);

/// What to poll: the descriptor, its events (POLLIN/POLLOUT), and the timeout in ms (-1: none).
int cmpris_fd(cmpris *m, short *events, int *timeout_ms);
/// Handles what arrived; < 0 (a negative errno) when the connection is lost.
int cmpris_process(cmpris *m);

/// Sets the values; PropertiesChanged is sent for those in `changed` (a NULL-terminated list of
/// property names of org.mpris.MediaPlayer2.Player).
int cmpris_update(cmpris *m, const cmpris_status *status, const cmpris_metadata *metadata, const char *const *changed);
/// Where playback is: `position_us` at CLOCK_MONOTONIC `at_ns`, moving on with the clock when `advancing`.
void cmpris_set_position(cmpris *m, int64_t position_us, uint64_t at_ns, int advancing);
/// Sends the Seeked signal with the current position.
int cmpris_emit_seeked(cmpris *m);

#endif
