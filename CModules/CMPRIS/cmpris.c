// MPRIS2 through sd-bus: see include/cmpris.h. The values served are copies of what Swift last
// gave `cmpris_update`, so a getter never calls back into Swift.
#include "cmpris.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-bus.h>

#define OBJECT_PATH "/org/mpris/MediaPlayer2"
#define ROOT_INTERFACE "org.mpris.MediaPlayer2"
#define PLAYER_INTERFACE "org.mpris.MediaPlayer2.Player"

struct cmpris {
    sd_bus *bus;
    cmpris_command_handler handler;
    void *context;
    char bus_name[128];
    // Copies of the last update.
    char *playback_status, *loop_status;
    int shuffle;
    double volume;
    int can_go_next, can_go_previous, can_play, can_pause, can_seek;
    char *track_id, *art_url, *title, *artist, *album_artist, *album, *genre, *url, *content_created;
    int64_t length_us;
    int32_t track_number, disc_number;
    int64_t position_us;
    uint64_t position_at_ns;
    int advancing;
};

static uint64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/// Where playback is now: the last position given, moved on by the time since while playing.
static int64_t current_position(const cmpris *m) {
    int64_t position = m->position_us;
    if (m->advancing) {
        uint64_t now = monotonic_ns();
        if (now > m->position_at_ns) position += (int64_t)((now - m->position_at_ns) / 1000);
    }
    if (m->length_us > 0 && position > m->length_us) position = m->length_us;
    return position < 0 ? 0 : position;
}

static void replace(char **slot, const char *value) {
    if (*slot && value && strcmp(*slot, value) == 0) return;
    free(*slot);
    *slot = value ? strdup(value) : NULL;
}

static void command(cmpris *m, cmpris_command what, int64_t integer, double real) {
    if (m->handler) m->handler(m->context, what, integer, real);
}

// MARK: org.mpris.MediaPlayer2

static int root_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                         sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)userdata; (void)error;
    if (strcmp(property, "CanQuit") == 0) return sd_bus_message_append(reply, "b", 1);
    if (strcmp(property, "CanRaise") == 0 || strcmp(property, "HasTrackList") == 0) return sd_bus_message_append(reply, "b", 0);
    if (strcmp(property, "Identity") == 0 || strcmp(property, "DesktopEntry") == 0) return sd_bus_message_append(reply, "s", "previewd");
    return sd_bus_message_append(reply, "as", 0);   // SupportedUriSchemes, SupportedMimeTypes: none
}

static int method_raise(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    return sd_bus_reply_method_return(call, NULL);   // CanRaise is false: nothing to raise
}

static int method_quit(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)error;
    command(userdata, CMPRIS_QUIT, 0, 0);
    return sd_bus_reply_method_return(call, NULL);
}

static const sd_bus_vtable root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", method_raise, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Quit", "", "", method_quit, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("CanQuit", "b", root_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanRaise", "b", root_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("HasTrackList", "b", root_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Identity", "s", root_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("DesktopEntry", "s", root_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", root_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", root_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END
};

// MARK: org.mpris.MediaPlayer2.Player: methods

static int simple_method(sd_bus_message *call, void *userdata, cmpris_command what) {
    command(userdata, what, 0, 0);
    return sd_bus_reply_method_return(call, NULL);
}

static int method_play(sd_bus_message *c, void *u, sd_bus_error *e) { (void)e; return simple_method(c, u, CMPRIS_PLAY); }
static int method_pause(sd_bus_message *c, void *u, sd_bus_error *e) { (void)e; return simple_method(c, u, CMPRIS_PAUSE); }
static int method_play_pause(sd_bus_message *c, void *u, sd_bus_error *e) { (void)e; return simple_method(c, u, CMPRIS_PLAY_PAUSE); }
static int method_stop(sd_bus_message *c, void *u, sd_bus_error *e) { (void)e; return simple_method(c, u, CMPRIS_STOP); }
static int method_next(sd_bus_message *c, void *u, sd_bus_error *e) { (void)e; return simple_method(c, u, CMPRIS_NEXT); }
static int method_previous(sd_bus_message *c, void *u, sd_bus_error *e) { (void)e; return simple_method(c, u, CMPRIS_PREVIOUS); }

static int method_seek(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)error;
    int64_t offset;
    int r = sd_bus_message_read(call, "x", &offset);
    if (r < 0) return r;
    cmpris *m = userdata;
    if (m->can_seek) command(m, CMPRIS_SEEK, offset, 0);
    return sd_bus_reply_method_return(call, NULL);
}

static int method_set_position(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)error;
    const char *track;
    int64_t position;
    int r = sd_bus_message_read(call, "ox", &track, &position);
    if (r < 0) return r;
    cmpris *m = userdata;
    // The specification: a stale track id, a negative position or one past the end is ignored.
    if (m->can_seek && m->track_id && strcmp(track, m->track_id) == 0 && position >= 0
        && (m->length_us <= 0 || position <= m->length_us)) {
        command(m, CMPRIS_SET_POSITION, position, 0);
    }
    return sd_bus_reply_method_return(call, NULL);
}

static int method_open_uri(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)call; (void)userdata;
    return sd_bus_error_set(error, SD_BUS_ERROR_NOT_SUPPORTED,
                            "previewd plays iTunes previews from its queue; queue them with previewctl search");
}

// MARK: org.mpris.MediaPlayer2.Player: properties

/// One {sv} entry of the Metadata map, its value appended from the arguments as `type` says.
static int metadata_entry(sd_bus_message *reply, const char *key, const char *type, ...) {
    int r = sd_bus_message_open_container(reply, 'e', "sv");
    if (r >= 0) r = sd_bus_message_append(reply, "s", key);
    if (r >= 0) r = sd_bus_message_open_container(reply, 'v', type);
    if (r >= 0) {
        va_list arguments;
        va_start(arguments, type);
        r = sd_bus_message_appendv(reply, type, arguments);
        va_end(arguments);
    }
    if (r >= 0) r = sd_bus_message_close_container(reply);
    if (r >= 0) r = sd_bus_message_close_container(reply);
    return r;
}

static int append_metadata(sd_bus_message *reply, const cmpris *m) {
    int r = sd_bus_message_open_container(reply, 'a', "{sv}");
    if (r < 0 || !m->track_id) return r < 0 ? r : sd_bus_message_close_container(reply);
    r = metadata_entry(reply, "mpris:trackid", "o", m->track_id);
    if (r >= 0 && m->length_us > 0) r = metadata_entry(reply, "mpris:length", "x", m->length_us);
    if (r >= 0 && m->art_url) r = metadata_entry(reply, "mpris:artUrl", "s", m->art_url);
    if (r >= 0 && m->title) r = metadata_entry(reply, "xesam:title", "s", m->title);
    if (r >= 0 && m->artist) r = metadata_entry(reply, "xesam:artist", "as", 1, m->artist);
    if (r >= 0 && m->album_artist) r = metadata_entry(reply, "xesam:albumArtist", "as", 1, m->album_artist);
    if (r >= 0 && m->album) r = metadata_entry(reply, "xesam:album", "s", m->album);
    if (r >= 0 && m->genre) r = metadata_entry(reply, "xesam:genre", "as", 1, m->genre);
    if (r >= 0 && m->track_number > 0) r = metadata_entry(reply, "xesam:trackNumber", "i", m->track_number);
    if (r >= 0 && m->disc_number > 0) r = metadata_entry(reply, "xesam:discNumber", "i", m->disc_number);
    if (r >= 0 && m->url) r = metadata_entry(reply, "xesam:url", "s", m->url);
    if (r >= 0 && m->content_created) r = metadata_entry(reply, "xesam:contentCreated", "s", m->content_created);
    return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int player_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)error;
    const cmpris *m = userdata;
    if (strcmp(property, "PlaybackStatus") == 0) return sd_bus_message_append(reply, "s", m->playback_status ? m->playback_status : "Stopped");
    if (strcmp(property, "LoopStatus") == 0) return sd_bus_message_append(reply, "s", m->loop_status ? m->loop_status : "None");
    if (strcmp(property, "Shuffle") == 0) return sd_bus_message_append(reply, "b", m->shuffle);
    if (strcmp(property, "Volume") == 0) return sd_bus_message_append(reply, "d", m->volume);
    if (strcmp(property, "Position") == 0) return sd_bus_message_append(reply, "x", current_position(m));
    if (strcmp(property, "Metadata") == 0) return append_metadata(reply, m);
    if (strcmp(property, "Rate") == 0 || strcmp(property, "MinimumRate") == 0 || strcmp(property, "MaximumRate") == 0)
        return sd_bus_message_append(reply, "d", 1.0);
    if (strcmp(property, "CanGoNext") == 0) return sd_bus_message_append(reply, "b", m->can_go_next);
    if (strcmp(property, "CanGoPrevious") == 0) return sd_bus_message_append(reply, "b", m->can_go_previous);
    if (strcmp(property, "CanPlay") == 0) return sd_bus_message_append(reply, "b", m->can_play);
    if (strcmp(property, "CanPause") == 0) return sd_bus_message_append(reply, "b", m->can_pause);
    if (strcmp(property, "CanSeek") == 0) return sd_bus_message_append(reply, "b", m->can_seek);
    return sd_bus_message_append(reply, "b", 1);   // CanControl
}

static int set_player_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                               sd_bus_message *value, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface;
    cmpris *m = userdata;
    int r;
    if (strcmp(property, "LoopStatus") == 0) {
        const char *status;
        if ((r = sd_bus_message_read(value, "s", &status)) < 0) return r;
        int mode = strcmp(status, "None") == 0 ? 0 : strcmp(status, "Track") == 0 ? 1 : strcmp(status, "Playlist") == 0 ? 2 : -1;
        if (mode < 0) return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "LoopStatus is None, Track or Playlist, not %s", status);
        command(m, CMPRIS_SET_LOOP, mode, 0);
    } else if (strcmp(property, "Shuffle") == 0) {
        int shuffle;
        if ((r = sd_bus_message_read(value, "b", &shuffle)) < 0) return r;
        command(m, CMPRIS_SET_SHUFFLE, shuffle != 0, 0);
    } else if (strcmp(property, "Rate") == 0) {
        // previewd plays at 1.0 only (MinimumRate = MaximumRate = 1.0). The specification: a client
        // should not set 0.0, and if it does the player acts as though Pause was called; any other
        // rate is within [1.0, 1.0] once clamped, so nothing changes.
        double rate;
        if ((r = sd_bus_message_read(value, "d", &rate)) < 0) return r;
        if (rate == 0) command(m, CMPRIS_PAUSE, 0, 0);
    } else {   // Volume
        double volume;
        if ((r = sd_bus_message_read(value, "d", &volume)) < 0) return r;
        if (!(volume >= 0)) volume = 0;   // negative (and NaN) is silence, as the specification says
        command(m, CMPRIS_SET_VOLUME, 0, volume > 1 ? 1 : volume);
    }
    return 1;
}

#define CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
static const sd_bus_vtable player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Play", "", "", method_play, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Pause", "", "", method_pause, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("PlayPause", "", "", method_play_pause, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", method_stop, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Next", "", "", method_next, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Previous", "", "", method_previous, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Seek", "x", "", method_seek, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("SetPosition", "ox", "", method_set_position, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("OpenUri", "s", "", method_open_uri, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("PlaybackStatus", "s", player_property, 0, CHANGES),
    SD_BUS_WRITABLE_PROPERTY("LoopStatus", "s", player_property, set_player_property, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Rate", "d", player_property, set_player_property, 0, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Shuffle", "b", player_property, set_player_property, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Metadata", "a{sv}", player_property, 0, CHANGES),
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", player_property, set_player_property, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    // Position changes all the time: clients ask for it, and are told of jumps by Seeked.
    SD_BUS_PROPERTY("Position", "x", player_property, 0, 0),
    SD_BUS_PROPERTY("MinimumRate", "d", player_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("MaximumRate", "d", player_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanGoNext", "b", player_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanGoPrevious", "b", player_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanPlay", "b", player_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanPause", "b", player_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanSeek", "b", player_property, 0, CHANGES),
    SD_BUS_PROPERTY("CanControl", "b", player_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_SIGNAL("Seeked", "x", 0),
    SD_BUS_VTABLE_END
};

// MARK: The connection

cmpris *cmpris_open(const char *name, cmpris_command_handler handler, void *context, const char **error, int *code) {
    cmpris *m = calloc(1, sizeof *m);
    if (!m) { *error = "out of memory"; *code = -ENOMEM; return NULL; }
    m->handler = handler;
    m->context = context;
    m->volume = 1;
    int r = sd_bus_open_user(&m->bus);
    if (r < 0) { *error = "no session bus"; goto fail; }
    r = sd_bus_add_object_vtable(m->bus, NULL, OBJECT_PATH, ROOT_INTERFACE, root_vtable, m);
    if (r >= 0) r = sd_bus_add_object_vtable(m->bus, NULL, OBJECT_PATH, PLAYER_INTERFACE, player_vtable, m);
    if (r < 0) { *error = "cannot export " OBJECT_PATH; goto fail; }
    snprintf(m->bus_name, sizeof m->bus_name, "org.mpris.MediaPlayer2.%s", name);
    r = sd_bus_request_name(m->bus, m->bus_name, 0);
    if (r == -EEXIST) {   // another previewd has it: the specification's per-instance name
        snprintf(m->bus_name, sizeof m->bus_name, "org.mpris.MediaPlayer2.%s.instance%ld", name, (long)getpid());
        r = sd_bus_request_name(m->bus, m->bus_name, 0);
    }
    if (r < 0) { *error = "cannot take the bus name"; goto fail; }
    return m;
fail:
    *code = r;
    cmpris_close(m);
    return NULL;
}

void cmpris_close(cmpris *m) {
    if (!m) return;
    if (m->bus) sd_bus_flush_close_unref(m->bus);
    char **strings[] = { &m->playback_status, &m->loop_status, &m->track_id, &m->art_url, &m->title, &m->artist,
                         &m->album_artist, &m->album, &m->genre, &m->url, &m->content_created };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) free(*strings[i]);
    free(m);
}

const char *cmpris_bus_name(const cmpris *m) { return m->bus_name; }

int cmpris_fd(cmpris *m, short *events, int *timeout_ms) {
    int fd = sd_bus_get_fd(m->bus);
    int wanted = sd_bus_get_events(m->bus);
    *events = wanted < 0 ? 0 : (short)wanted;
    uint64_t until = UINT64_MAX;
    *timeout_ms = -1;
    if (sd_bus_get_timeout(m->bus, &until) >= 0 && until != UINT64_MAX) {
        uint64_t now = monotonic_ns() / 1000;
        *timeout_ms = until <= now ? 0 : (int)((until - now + 999) / 1000 > 3600000 ? 3600000 : (until - now + 999) / 1000);
    }
    return fd;
}

int cmpris_process(cmpris *m) {
    int r;
    while ((r = sd_bus_process(m->bus, NULL)) > 0) {}
    return r;
}

int cmpris_update(cmpris *m, const cmpris_status *s, const cmpris_metadata *t, const char *const *changed) {
    replace(&m->playback_status, s->playback_status);
    replace(&m->loop_status, s->loop_status);
    m->shuffle = s->shuffle;
    m->volume = s->volume;
    m->can_go_next = s->can_go_next;
    m->can_go_previous = s->can_go_previous;
    m->can_play = s->can_play;
    m->can_pause = s->can_pause;
    m->can_seek = s->can_seek;
    replace(&m->track_id, t->track_id);
    replace(&m->art_url, t->art_url);
    replace(&m->title, t->title);
    replace(&m->artist, t->artist);
    replace(&m->album_artist, t->album_artist);
    replace(&m->album, t->album);
    replace(&m->genre, t->genre);
    replace(&m->url, t->url);
    replace(&m->content_created, t->content_created);
    m->length_us = t->length_us;
    m->track_number = t->track_number;
    m->disc_number = t->disc_number;
    if (!changed || !changed[0]) return 0;
    return sd_bus_emit_properties_changed_strv(m->bus, OBJECT_PATH, PLAYER_INTERFACE, (char **)changed);
}

void cmpris_set_position(cmpris *m, int64_t position_us, uint64_t at_ns, int advancing) {
    m->position_us = position_us;
    m->position_at_ns = at_ns;
    m->advancing = advancing;
}

int cmpris_emit_seeked(cmpris *m) {
    return sd_bus_emit_signal(m->bus, OBJECT_PATH, PLAYER_INTERFACE, "Seeked", "x", current_position(m));
}
