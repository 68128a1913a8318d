// RSS floor probe: a C program that links Debian's FFmpeg and libpulse, opens the AAC decoder and
// creates a threaded mainloop, then prints its resident memory. See scripts/rss-floor.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <pulse/pulseaudio.h>
#include <unistd.h>
#include <stdio.h>
int main(void) {
  const AVCodec *c = avcodec_find_decoder(AV_CODEC_ID_AAC);
  AVCodecContext *ctx = avcodec_alloc_context3(c);
  avcodec_open2(ctx, c, NULL);
  pa_threaded_mainloop *m = pa_threaded_mainloop_new();
  SwrContext *s = swr_alloc();
  (void)s; (void)m;
  char buf[256]; snprintf(buf, sizeof buf, "grep -E 'VmRSS|RssAnon|RssFile' /proc/%d/status", getpid()); system(buf);
  return 0;
}
