/* An item's iTunes and Podcasting 2.0 elements in the C baseline, written as feedpull writes
 * its `itunes` and `podcast` objects (docs/format.md): the same job as feedpull on a podcast
 * feed, so that the podcast benchmark has a C figure doing what feedpull does. Item level only
 * (the channel's few elements cost nothing next to its episodes'). */
#ifndef FEED_PODCAST_H
#define FEED_PODCAST_H

#include "json_buf.h"

enum { NS_URI_ITUNES, NS_URI_PODCAST };

enum it_slot { IT_TITLE, IT_SUBTITLE, IT_SUMMARY, IT_EPISODE_TYPE, IT_IMAGE, IT_AUTHOR, IT_COUNT };

typedef struct {
  buf it[IT_COUNT];
  long it_duration, it_episode, it_season;
  int has_duration, has_episode, has_season, explicit_flag; /* explicit_flag: -1 when not given */
  buf it_duration_raw, keywords, keyword_tags;
  /* JSON fragments, each entry starting with ',' */
  buf persons, transcripts, soundbites, alternates, alternate_sources;
  buf chapters, season, episode; /* whole objects, empty when absent */
  /* the element being read: its kind and the attributes it started with */
  int pending, alternate_depth;
  buf attr[8];
} podcast_fields;

/* An element of either namespace starts at `depth` inside an item whose element is at
 * `item_depth`. Returns 1 when the caller should capture the element's text for
 * podcast_text. */
int podcast_start(podcast_fields *p, int ns, const char *name, const unsigned char **attrs,
                  int count, int depth, int item_depth);

/* The captured text of the element podcast_start asked for, trimmed to [s, n). */
void podcast_text(podcast_fields *p, const char *s, size_t n);

/* An element ends at `depth`: closes an alternate enclosure. */
void podcast_end(podcast_fields *p, int depth);

/* Appends `"image"`, `"tags"`, `"itunes"` and `"podcast"` to an item's JSON line;
 * `categories` is the item's categories fragment, which feedpull also gives as tags once
 * keywords are tags too. */
void podcast_put_json(buf *line, const podcast_fields *p, const buf *categories, int has_image);

/* Empties the fields for the next item, keeping their buffers. */
void podcast_clear(podcast_fields *p);

/* Frees the buffers. */
void podcast_free(podcast_fields *p);

#endif
