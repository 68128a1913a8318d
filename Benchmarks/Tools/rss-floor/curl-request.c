// RSS floor probe: a C program that links libcurl (Debian's shared one, or the minimal static one of
// scripts/build-deps), starts one HTTPS request (to a closed port), then prints its resident memory.
// See scripts/rss-floor.
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL *easy = curl_easy_init();
  curl_easy_setopt(easy, CURLOPT_URL, "https://127.0.0.1:1/");
  curl_easy_perform(easy);
  char buf[256]; snprintf(buf, sizeof buf, "grep -E 'VmRSS|RssAnon|RssFile' /proc/%d/status", getpid()); system(buf);
  return 0;
}
