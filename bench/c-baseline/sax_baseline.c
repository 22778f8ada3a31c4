/* sax_baseline [--flush] FILE|-
 *
 * The parse baseline: the document in 64 KB chunks into one libxml2 SAX2 push parser, one JSON
 * line per item (and the feed and end records) to stdout, as `feedpull --format jsonl FILE`.
 * Output goes through stdio's buffer unless --flush asks for one write per record. */
#include "feed_sax.h"

#include <fcntl.h>
#include <libxml/parser.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int flush_each = argc > 1 && !strcmp(argv[1], "--flush");
  if (argc != 2 + flush_each) {
    fprintf(stderr, "usage: sax_baseline [--flush] FILE|-\n");
    return 2;
  }
  const char *source = argv[1 + flush_each];
  int fd = strcmp(source, "-") ? open(source, O_RDONLY) : 0;
  if (fd < 0) {
    perror(source);
    return 1;
  }
  static char chunk[64 * 1024], out_buffer[64 * 1024];
  setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
  xmlInitParser();
  feed_sax *fs = feed_sax_new(source, stdout, flush_each);
  ssize_t n;
  while ((n = read(fd, chunk, sizeof chunk)) > 0)
    if (feed_sax_push(fs, chunk, (size_t)n) < 0) break;
  int ok = feed_sax_finish(fs, NULL, 0, n < 0 ? "io" : NULL);
  fflush(stdout);
  return ok ? 0 : 1;
}
