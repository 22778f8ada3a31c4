/* The fields of the C baselines: which (namespace, element, parent) fills which field of a
 * record, and a record's JSON. Adding a field is adding a row, as in sfeed's fieldmap. */
#ifndef FEED_FIELDS_H
#define FEED_FIELDS_H

#include "json_buf.h"

enum ns {
  NS_OTHER,
  NS_RSS,
  NS_ATOM,
  NS_CONTENT,
  NS_DC,
  NS_DCTERMS,
  NS_MEDIA,
  NS_RDF,
  NS_ITUNES,
  NS_PODCAST
};
enum ctx { C_FEED = 1, C_ITEM = 2, C_AUTHOR = 4, C_IMAGE = 8 };
enum act {
  A_TEXT,
  A_DATE,
  A_GUID,
  A_CATEGORY,
  A_CREATOR,
  A_RSS_AUTHOR,
  A_ATOM_TEXT,
  A_PART,
  A_LINK,
  A_ENCLOSURE,
  A_MEDIA,
  A_ATOM_CATEGORY,
  A_AUTHOR,
  A_IMAGE,
  A_PODCAST /* an iTunes or Podcasting 2.0 element's text (feed_podcast.c) */
};
enum slot {
  S_ID,
  S_TITLE,
  S_LINK,
  S_SELF,
  S_SUMMARY,
  S_CONTENT,
  S_PUBLISHED,
  S_UPDATED,
  S_COMMENTS,
  S_LANGUAGE,
  S_GENERATOR,
  S_IMAGE,
  S_ICON,
  S_RIGHTS,
  S_COUNT
};
enum list { L_LINKS, L_AUTHORS, L_CATEGORIES, L_ENCLOSURES, L_COUNT };
struct row {
  enum ns ns;
  const char *name;
  int ctx;
  enum act act;
  int slot;
};

/* The table: the first row matching an element wins. */
extern const struct row feed_rows[];
extern const size_t feed_row_count;

typedef struct {
  buf slot[S_COUNT];
  buf list[L_COUNT];
  const char *type[S_COUNT];
  int guid_is_link;
} record;

/* Appends the record's fields to a JSON line being built (after "type" and "source"). */
void record_put_json(buf *line, const record *r, int is_feed);

/* Empties a record for the next item, keeping its buffers. */
void record_clear(record *r);

/* Frees a record's buffers. */
void record_free(record *r);

#endif
