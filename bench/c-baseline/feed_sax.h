/* The benchmark's C baseline: RSS 2.0 / RSS 1.0 / Atom 1.0 fields, and an item's iTunes and
 * Podcasting 2.0 elements (feed_podcast.c), from libxml2's SAX2 push parser, one JSON line per
 * item, as feedpull's --format jsonl writes them (see docs/format.md). The limit of feedpull's design: the same parser, the same API,
 * no Swift. Shared by sax_baseline.c (files, stdin) and multi_baseline.c (libcurl multi). */
#ifndef FEED_SAX_H
#define FEED_SAX_H

#include <stddef.h>
#include <stdio.h>

typedef struct feed_sax feed_sax;

/* A parser for one source; its records go to `out`, each flushed when `flush_each` is set
 * (one write per record, as feedpull does), else left to stdio's buffer. */
feed_sax *feed_sax_new(const char *source, FILE *out, int flush_each);

/* Feeds the next bytes of the document (any split). Returns 0, or -1 once the parse stopped. */
int feed_sax_push(feed_sax *fs, const char *bytes, size_t count);

/* Ends the document and writes the `end` record: `url` (NULL: the source), `status` (0: none),
 * `error_kind` (NULL when the transfer itself was fine). Frees `fs`. Returns 1 when ok. */
int feed_sax_finish(feed_sax *fs, const char *url, long status, const char *error_kind);

#endif
