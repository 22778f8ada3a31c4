/* See feed_fields.h. Dates become RFC 3339 UTC (feed_date.c); one unreadable stays as *_raw. */
#include "feed_fields.h"

#include <stdio.h>

int feed_date_rfc3339(const char *s, size_t n, char out[32]);

static const char *const slot_key[S_COUNT] = {
    "id",      "title",    "link",     "self",      "summary", "content", "published",
    "updated", "comments", "language", "generator", "image",   "icon",    "rights"};
static const char *const list_key[L_COUNT] = {"links", "authors", "categories", "enclosures"};

const struct row feed_rows[] = {
    {NS_RSS, "title", C_FEED | C_ITEM, A_TEXT, S_TITLE},
    {NS_RSS, "link", C_FEED | C_ITEM, A_TEXT, S_LINK},
    {NS_RSS, "description", C_FEED | C_ITEM, A_TEXT, S_SUMMARY},
    {NS_RSS, "guid", C_ITEM, A_GUID, S_ID},
    {NS_RSS, "pubDate", C_FEED | C_ITEM, A_DATE, S_PUBLISHED},
    {NS_RSS, "lastBuildDate", C_FEED, A_DATE, S_UPDATED},
    {NS_RSS, "language", C_FEED, A_TEXT, S_LANGUAGE},
    {NS_RSS, "generator", C_FEED, A_TEXT, S_GENERATOR},
    {NS_RSS, "copyright", C_FEED, A_TEXT, S_RIGHTS},
    {NS_RSS, "comments", C_ITEM, A_TEXT, S_COMMENTS},
    {NS_RSS, "category", C_FEED | C_ITEM, A_CATEGORY, 0},
    {NS_RSS, "author", C_ITEM, A_RSS_AUTHOR, 0},
    {NS_RSS, "managingEditor", C_FEED, A_RSS_AUTHOR, 0},
    {NS_RSS, "enclosure", C_ITEM, A_ENCLOSURE, 0},
    {NS_RSS, "image", C_FEED, A_IMAGE, 0},
    {NS_RSS, "url", C_IMAGE, A_TEXT, S_IMAGE},
    {NS_CONTENT, "encoded", C_ITEM, A_TEXT, S_CONTENT},
    {NS_DC, "creator", C_FEED | C_ITEM, A_CREATOR, 0},
    {NS_DC, "date", C_ITEM, A_DATE, S_PUBLISHED},
    {NS_DC, "date", C_FEED, A_DATE, S_UPDATED},
    {NS_DC, "subject", C_FEED | C_ITEM, A_CATEGORY, 0},
    {NS_DC, "language", C_FEED, A_TEXT, S_LANGUAGE},
    {NS_DC, "rights", C_FEED, A_TEXT, S_RIGHTS},
    {NS_DCTERMS, "modified", C_FEED | C_ITEM, A_DATE, S_UPDATED},
    {NS_DCTERMS, "issued", C_FEED | C_ITEM, A_DATE, S_PUBLISHED},
    {NS_DCTERMS, "created", C_FEED | C_ITEM, A_DATE, S_PUBLISHED},
    {NS_ATOM, "title", C_FEED | C_ITEM, A_ATOM_TEXT, S_TITLE},
    {NS_ATOM, "subtitle", C_FEED, A_ATOM_TEXT, S_SUMMARY},
    {NS_ATOM, "summary", C_ITEM, A_ATOM_TEXT, S_SUMMARY},
    {NS_ATOM, "content", C_ITEM, A_ATOM_TEXT, S_CONTENT},
    {NS_ATOM, "id", C_FEED | C_ITEM, A_TEXT, S_ID},
    {NS_ATOM, "link", C_FEED | C_ITEM, A_LINK, 0},
    {NS_ATOM, "published", C_FEED | C_ITEM, A_DATE, S_PUBLISHED},
    {NS_ATOM, "updated", C_FEED | C_ITEM, A_DATE, S_UPDATED},
    {NS_ATOM, "author", C_FEED | C_ITEM, A_AUTHOR, 0},
    {NS_ATOM, "name", C_AUTHOR, A_PART, 0},
    {NS_ATOM, "email", C_AUTHOR, A_PART, 1},
    {NS_ATOM, "uri", C_AUTHOR, A_PART, 2},
    {NS_ATOM, "category", C_FEED | C_ITEM, A_ATOM_CATEGORY, 0},
    {NS_ATOM, "generator", C_FEED, A_TEXT, S_GENERATOR},
    {NS_ATOM, "icon", C_FEED, A_TEXT, S_ICON},
    {NS_ATOM, "logo", C_FEED, A_TEXT, S_IMAGE},
    {NS_ATOM, "rights", C_FEED, A_TEXT, S_RIGHTS},
    {NS_MEDIA, "content", C_ITEM, A_MEDIA, 0},
};
const size_t feed_row_count = sizeof feed_rows / sizeof *feed_rows;

void record_put_json(buf *b, const record *r, int is_feed) {
  for (int s = 0; s < S_COUNT; s++) {
    const char *key = (is_feed && s == S_SUMMARY) ? "description" : slot_key[s];
    if (s == S_PUBLISHED || s == S_UPDATED) {
      char date[32];
      if (r->slot[s].n && feed_date_rfc3339(r->slot[s].p, r->slot[s].n, date))
        put_field(b, key, date, 20);
      else if (r->slot[s].n)
        put_field(b, s == S_PUBLISHED ? "published_raw" : "updated_raw", r->slot[s].p,
                  r->slot[s].n);
    } else
      put_field(b, key, r->slot[s].p, r->slot[s].n);
    if (r->type[s] && r->slot[s].n && (!is_feed || s == S_TITLE)) {
      char k[24];
      snprintf(k, sizeof k, "%s_type", key);
      put_field(b, k, r->type[s], strlen(r->type[s]));
    }
    if (s == S_LINK && !is_feed && !r->list[L_LINKS].n && r->slot[S_LINK].n) {
      PUTS(b, ",\"links\":[{\"href\":");
      put_json(b, r->slot[S_LINK].p, r->slot[S_LINK].n);
      PUTS(b, ",\"rel\":\"alternate\",\"type\":\"text/html\"}]");
    }
  }
  for (int l = 0; l < L_COUNT; l++) {
    if (!r->list[l].n) continue;
    PUTS(b, ",\"");
    put(b, list_key[l], strlen(list_key[l]));
    PUTS(b, "\":[");
    put(b, r->list[l].p + 1, r->list[l].n - 1); /* each entry starts with ',' */
    PUTS(b, "]");
  }
}

void record_clear(record *r) {
  for (int s = 0; s < S_COUNT; s++) {
    r->slot[s].n = 0;
    r->type[s] = NULL;
  }
  for (int l = 0; l < L_COUNT; l++)
    r->list[l].n = 0;
  r->guid_is_link = 0;
}

void record_free(record *r) {
  for (int s = 0; s < S_COUNT; s++)
    free(r->slot[s].p);
  for (int l = 0; l < L_COUNT; l++)
    free(r->list[l].p);
}
