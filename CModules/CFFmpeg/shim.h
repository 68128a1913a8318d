// The FFmpeg API previewd uses, plus the macros Swift cannot import, as static inline shims.
#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libavutil/sha.h>
#include <errno.h>

/// AVERROR(e): a POSIX errno as an FFmpeg error code.
static inline int cff_AVERROR(int e) { return AVERROR(e); }
/// AVERROR_EOF: end of the stream.
static inline int cff_AVERROR_EOF(void) { return AVERROR_EOF; }
/// AVERROR_EXIT: the interrupt callback asked to stop.
static inline int cff_AVERROR_EXIT(void) { return AVERROR_EXIT; }
/// AVERROR_INVALIDDATA: the bytes are not what the demuxer or decoder expected.
static inline int cff_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }
/// AVERROR(EAGAIN): try again after feeding or draining.
static inline int cff_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
/// AV_NOPTS_VALUE: no timestamp.
static inline int64_t cff_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE: microseconds per second, the unit of AVFormatContext.duration.
static inline int cff_AV_TIME_BASE(void) { return AV_TIME_BASE; }
/// Default stereo layout (AV_CHANNEL_LAYOUT_STEREO is a compound literal Swift cannot import).
static inline void cff_channel_layout_stereo(AVChannelLayout *layout) { av_channel_layout_default(layout, 2); }

/// Scales `frame` (any pixel format) to `width`×`height` RGB24 into `out` (3 × width bytes a row,
/// area averaging: a thumbnail); 0, or a negative AVERROR.
static inline int cff_frame_to_rgb24(const AVFrame *frame, uint8_t *out, int width, int height) {
    struct SwsContext *sws = sws_getContext(frame->width, frame->height, (enum AVPixelFormat)frame->format,
                                            width, height, AV_PIX_FMT_RGB24, SWS_AREA, NULL, NULL, NULL);
    if (!sws) return AVERROR(EINVAL);
    uint8_t *planes[4] = { out, NULL, NULL, NULL };
    int strides[4] = { width * 3, 0, 0, 0 };
    int rows = sws_scale(sws, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    sws_freeContext(sws);
    return rows == height ? 0 : AVERROR(EINVAL);
}

#endif
