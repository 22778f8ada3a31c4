/* multi_baseline [-j N] [--timeout SECONDS] [--cacert FILE] URLS_FILE
 *
 * The "fetch many" baseline: libcurl multi with N transfers in flight (16 by default), each
 * body's chunks straight into its own libxml2 SAX2 push parser (feed_sax.c), records written to
 * stdout one write each as soon as an item's end tag is parsed, as `feedpull -j N -i FILE`.
 * URLS_FILE holds one URL a line ('#' comments). Waits with curl_multi_poll.
 *
 * Over https it does what feedpull does: --cacert FILE is the whole trust store (no CA
 * directory, so libcurl caches the parsed store in the multi handle), and a transfer waits for
 * an origin's first connection to multiplex on it (CURLOPT_PIPEWAIT) rather than open its own:
 * the same job over the same connections. */
#include "feed_sax.h"

#include <curl/curl.h>
#include <libxml/parser.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  feed_sax *parser;
  char *url;
} transfer;

static size_t on_body(char *bytes, size_t size, size_t count, void *user) {
  transfer *t = user;
  feed_sax_push(t->parser, bytes, size * count);
  return size * count;
}

static const char *ca_file = NULL;

static CURL *start(CURLM *multi, char *url, long timeout_ms) {
  transfer *t = calloc(1, sizeof *t);
  t->url = url;
  t->parser = feed_sax_new(url, stdout, 1);
  CURL *easy = curl_easy_init();
  curl_easy_setopt(easy, CURLOPT_URL, url);
  curl_easy_setopt(easy, CURLOPT_PRIVATE, t);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(easy, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, "multi_baseline");
  if (ca_file) {
    curl_easy_setopt(easy, CURLOPT_CAINFO, ca_file);
    curl_easy_setopt(easy, CURLOPT_CAPATH, NULL);
  }
  if (!strncmp(url, "https:", 6)) curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
  curl_multi_add_handle(multi, easy);
  return easy;
}

static int finish(CURLM *multi, CURL *easy, CURLcode result) {
  transfer *t;
  char *url = NULL;
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&t);
  curl_easy_getinfo(easy, CURLINFO_EFFECTIVE_URL, &url);
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  const char *error = result == CURLE_OPERATION_TIMEDOUT ? "timeout"
                      : result != CURLE_OK               ? "network"
                      : (status < 200 || status > 299)   ? "http"
                                                         : NULL;
  int ok = feed_sax_finish(t->parser, url, status, error);
  curl_multi_remove_handle(multi, easy);
  curl_easy_cleanup(easy);
  free(t);
  return ok;
}

int main(int argc, char **argv) {
  long jobs = 16, timeout_ms = 30000;
  const char *list = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-j") && i + 1 < argc)
      jobs = atol(argv[++i]);
    else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
      timeout_ms = (long)(atof(argv[++i]) * 1000);
    else if (!strcmp(argv[i], "--cacert") && i + 1 < argc)
      ca_file = argv[++i];
    else
      list = argv[i];
  }
  FILE *f = list ? fopen(list, "r") : NULL;
  if (!f || jobs < 1) {
    fprintf(stderr, "usage: multi_baseline [-j N] [--timeout SECONDS] [--cacert FILE] URLS_FILE\n");
    return 2;
  }
  char **urls = NULL, line[4096];
  size_t count = 0, next = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    urls = realloc(urls, (count + 1) * sizeof *urls);
    urls[count++] = strdup(line);
  }
  fclose(f);

  static char out_buffer[64 * 1024];
  setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
  xmlInitParser();
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURLM *multi = curl_multi_init();
  int running = 0, failed = 0;
  for (; next < count && (long)next < jobs; next++)
    start(multi, urls[next], timeout_ms);
  do {
    curl_multi_perform(multi, &running);
    CURLMsg *msg;
    int queued;
    while ((msg = curl_multi_info_read(multi, &queued))) {
      if (msg->msg != CURLMSG_DONE) continue;
      CURL *easy = msg->easy_handle;
      CURLcode result = msg->data.result;
      failed += !finish(multi, easy, result);
      if (next < count) {
        start(multi, urls[next++], timeout_ms);
        running++;
      }
    }
    if (running) curl_multi_poll(multi, NULL, 0, 1000, NULL);
  } while (running || next < count);
  curl_multi_cleanup(multi);
  curl_global_cleanup();
  for (size_t i = 0; i < count; i++)
    free(urls[i]);
  free(urls);
  return failed ? 1 : 0;
}
