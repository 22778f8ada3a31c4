/* See feed_sax.h. Elements map to fields through one table (namespace class, local name, parent
 * context) as in sfeed; text is captured only inside a mapped element; a record is one JSON line
 * built in a reused buffer and written with one fwrite. Dates become RFC 3339 UTC. */
#include "feed_sax.h"
#include "feed_fields.h"
#include "feed_podcast.h"
#include "json_buf.h"

#include <libxml/parser.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct feed_sax {
  xmlParserCtxtPtr ctxt;
  FILE *out;
  int flush_each, wellformed, stopped, feed_written, depth, chan_depth, item_depth, author_depth,
      image_depth, capture_depth;
  const struct row *capture;
  const char *source, *version;
  long items;
  size_t bytes;
  struct timespec start;
  record feed, item, *rec;
  buf text, author[3], line;
  podcast_fields pod;
};

static const struct row podcast_row = {NS_OTHER, "", C_ITEM, A_PODCAST, 0};

static enum ns ns_class(const xmlChar *uri) {
  if (!uri) return NS_RSS;
  const char *u = (const char *)uri;
  if (!strcmp(u, "http://www.w3.org/2005/Atom")) return NS_ATOM;
  if (!strcmp(u, "http://purl.org/rss/1.0/") ||
      !strcmp(u, "http://my.netscape.com/rdf/simple/0.9/"))
    return NS_RSS;
  if (!strcmp(u, "http://purl.org/rss/1.0/modules/content/")) return NS_CONTENT;
  if (!strcmp(u, "http://purl.org/dc/elements/1.1/")) return NS_DC;
  if (!strcmp(u, "http://purl.org/dc/terms/")) return NS_DCTERMS;
  if (!strcmp(u, "http://search.yahoo.com/mrss/")) return NS_MEDIA;
  if (!strcmp(u, "http://www.w3.org/1999/02/22-rdf-syntax-ns#")) return NS_RDF;
  if (!strcmp(u, "http://www.itunes.com/dtds/podcast-1.0.dtd")) return NS_ITUNES;
  if (!strcmp(u, "https://podcastindex.org/namespace/1.0")) return NS_PODCAST;
  return NS_OTHER;
}

/* An attribute's value; SAX2 hands '&' over as "&#38;" when entities are not replaced. */
static void attr(const xmlChar **attrs, int count, const char *name, buf *out) {
  out->n = 0;
  for (int i = 0; i < count; i++, attrs += 5) {
    if (strcmp((const char *)attrs[0], name)) continue;
    const char *s = (const char *)attrs[3], *end = (const char *)attrs[4], *amp;
    while ((amp = memchr(s, '&', end - s)) && end - amp >= 5 && !memcmp(amp, "&#38;", 5)) {
      put(out, s, amp - s + 1);
      s = amp + 5;
    }
    put(out, s, end - s);
    return;
  }
}

static void write_line(feed_sax *fs) {
  PUTS(&fs->line, "}\n");
  fwrite(fs->line.p, 1, fs->line.n, fs->out);
  if (fs->flush_each) fflush(fs->out);
  fs->line.n = 0;
}

static void write_feed(feed_sax *fs) {
  fs->feed_written = 1;
  PUTS(&fs->line, "{\"type\":\"feed\"");
  put_field(&fs->line, "source", fs->source, strlen(fs->source));
  put_field(&fs->line, "version", fs->version, strlen(fs->version));
  record_put_json(&fs->line, &fs->feed, 1);
  write_line(fs);
}

static void write_item(feed_sax *fs) {
  record *r = &fs->item;
  char index[24];
  if (!r->slot[S_LINK].n && r->guid_is_link && r->slot[S_ID].n > 4 &&
      !memcmp(r->slot[S_ID].p, "http", 4))
    put(&r->slot[S_LINK], r->slot[S_ID].p, r->slot[S_ID].n);
  PUTS(&fs->line, "{\"type\":\"item\"");
  put_field(&fs->line, "source", fs->source, strlen(fs->source));
  put(&fs->line, index, snprintf(index, sizeof index, ",\"index\":%ld", fs->items++));
  record_put_json(&fs->line, r, 0);
  podcast_put_json(&fs->line, &fs->pod, &r->list[L_CATEGORIES], r->slot[S_IMAGE].n != 0);
  write_line(fs);
}

static void start_element(void *ctx, const xmlChar *local, const xmlChar *prefix,
                          const xmlChar *uri, int nns, const xmlChar **nss, int nattrs,
                          int ndefaulted, const xmlChar **attrs) {
  feed_sax *fs = ctx;
  (void)prefix;
  (void)nns;
  (void)nss;
  (void)ndefaulted;
  int d = ++fs->depth;
  enum ns ns = ns_class(uri);
  const char *name = (const char *)local;
  if (d > 512) {
    xmlStopParser(fs->ctxt);
    fs->stopped = 1;
    return;
  }
  if (d == 1) {
    attr(attrs, nattrs, "lang", &fs->feed.slot[S_LANGUAGE]); /* xml:lang on the root */
    if (ns == NS_RSS && !strcmp(name, "rss")) {
      buf v = {0};
      attr(attrs, nattrs, "version", &v);
      fs->version = (v.n == 3 && !memcmp(v.p, "2.0", 3))    ? "rss20"
                    : (v.n == 4 && !memcmp(v.p, "0.92", 4)) ? "rss092"
                                                            : "rss";
      free(v.p);
    } else if (ns == NS_RDF && !strcmp(name, "RDF")) {
      fs->version = "rss10";
      fs->chan_depth = -1;
    } else if (ns == NS_ATOM && !strcmp(name, "feed")) {
      fs->version = "atom10";
      fs->chan_depth = 1;
    }
    return;
  }
  if (fs->capture_depth || !fs->version) return;
  if (!fs->item_depth && ns == NS_RSS && !strcmp(name, "channel")) {
    fs->chan_depth = d;
    return;
  }
  if (!fs->item_depth &&
      ((ns == NS_RSS && !strcmp(name, "item")) || (ns == NS_ATOM && !strcmp(name, "entry")))) {
    if (!fs->feed_written) write_feed(fs);
    fs->item_depth = d;
    record_clear(&fs->item);
    podcast_clear(&fs->pod);
    fs->rec = &fs->item;
    if (ns == NS_RSS) {
      attr(attrs, nattrs, "about", &fs->text); /* RSS 1.0 rdf:about is the item's id */
      if (fs->text.n) put(&fs->item.slot[S_ID], fs->text.p, fs->text.n);
    }
    return;
  }
  if (fs->item_depth && (ns == NS_ITUNES || ns == NS_PODCAST)) {
    if (podcast_start(&fs->pod, ns == NS_ITUNES ? NS_URI_ITUNES : NS_URI_PODCAST, name, attrs,
                      nattrs, d, fs->item_depth)) {
      fs->rec = &fs->item;
      fs->capture = &podcast_row;
      fs->capture_depth = d;
      fs->text.n = 0;
    }
    return;
  }
  int c = fs->author_depth && d == fs->author_depth + 1                      ? C_AUTHOR
          : fs->image_depth && d == fs->image_depth + 1                      ? C_IMAGE
          : fs->item_depth && d == fs->item_depth + 1                        ? C_ITEM
          : !fs->item_depth && fs->chan_depth > 0 && d == fs->chan_depth + 1 ? C_FEED
                                                                             : 0;
  if (!c) return;
  fs->rec = fs->item_depth ? &fs->item : &fs->feed;
  const struct row *r = feed_rows;
  while (r < feed_rows + feed_row_count && !(r->ns == ns && (r->ctx & c) && !strcmp(r->name, name)))
    r++;
  if (r == feed_rows + feed_row_count) return;
  record *rec = fs->rec;
  buf v[5] = {{0}};
  switch (r->act) {
  case A_AUTHOR:
    fs->author_depth = d;
    for (int i = 0; i < 3; i++)
      fs->author[i].n = 0;
    return;
  case A_IMAGE: fs->image_depth = d; return;
  case A_ATOM_CATEGORY:
    attr(attrs, nattrs, "term", &v[0]);
    if (v[0].n) {
      PUTS(&rec->list[L_CATEGORIES], ",");
      put_json(&rec->list[L_CATEGORIES], v[0].p, v[0].n);
    }
    break;
  case A_ENCLOSURE:
  case A_MEDIA: {
    static const char *keys[] = {"url", "type", "length"};
    attr(attrs, nattrs, "url", &v[0]);
    attr(attrs, nattrs, "type", &v[1]);
    attr(attrs, nattrs, r->act == A_MEDIA ? "fileSize" : "length", &v[2]);
    if (v[0].n) put_object(&rec->list[L_ENCLOSURES], 3, keys, v, 1);
    break;
  }
  case A_LINK: {
    static const char *keys[] = {"href", "rel", "type", "title", "length"};
    static const char *enc_keys[] = {"url", "type", "length"};
    attr(attrs, nattrs, "href", &v[0]);
    attr(attrs, nattrs, "rel", &v[1]);
    attr(attrs, nattrs, "type", &v[2]);
    attr(attrs, nattrs, "title", &v[3]);
    attr(attrs, nattrs, "length", &v[4]);
    if (!v[1].n) PUTS(&v[1], "alternate");
    int alternate = v[1].n == 9 && !memcmp(v[1].p, "alternate", 9);
    if (alternate && !rec->slot[S_LINK].n) put(&rec->slot[S_LINK], v[0].p, v[0].n);
    if (c == C_FEED) {
      if (v[1].n == 4 && !memcmp(v[1].p, "self", 4) && !rec->slot[S_SELF].n)
        put(&rec->slot[S_SELF], v[0].p, v[0].n);
      break;
    }
    put_object(&rec->list[L_LINKS], 5, keys, v, 1);
    if (v[1].n == 9 && !memcmp(v[1].p, "enclosure", 9)) {
      buf e[3] = {v[0], v[2], v[4]};
      put_object(&rec->list[L_ENCLOSURES], 3, enc_keys, e, 1);
    }
    break;
  }
  case A_ATOM_TEXT:
    attr(attrs, nattrs, "type", &v[0]);
    rec->type[r->slot] = !v[0].n || (v[0].n == 4 && !memcmp(v[0].p, "text", 4)) ? "text/plain"
                         : v[0].n == 4 && !memcmp(v[0].p, "html", 4)            ? "text/html"
                         : v[0].n == 5 && !memcmp(v[0].p, "xhtml", 5) ? "application/xhtml+xml"
                                                                      : NULL;
    if (!rec->type[r->slot]) {
      put(&v[0], "", 1);
      rec->type[r->slot] = (const char *)xmlDictLookup(fs->ctxt->dict, (const xmlChar *)v[0].p, -1);
    }
    /* fall through */
  default:
    if (r->act == A_GUID) {
      attr(attrs, nattrs, "isPermaLink", &v[0]);
      rec->guid_is_link = !(v[0].n == 5 && !memcmp(v[0].p, "false", 5));
    }
    fs->capture = r;
    fs->capture_depth = d;
    fs->text.n = 0;
  }
  for (int i = 0; i < 5; i++)
    free(v[i].p);
}

static void trim(buf *b, size_t *from) {
  size_t s = 0;
  while (s < b->n && strchr(" \t\r\n", b->p[s]))
    s++;
  while (b->n > s && strchr(" \t\r\n", b->p[b->n - 1]))
    b->n--;
  *from = s;
}

static void end_capture(feed_sax *fs) {
  const struct row *r = fs->capture;
  record *rec = fs->rec;
  size_t s = 0;
  buf *t = &fs->text;
  fs->capture_depth = 0;
  if (r->act != A_ATOM_TEXT || r->slot == S_TITLE) trim(t, &s);
  switch (r->act) {
  case A_PODCAST: podcast_text(&fs->pod, t->p + s, t->n - s); return;
  case A_CATEGORY:
    if (t->n > s) {
      PUTS(&rec->list[L_CATEGORIES], ",");
      put_json(&rec->list[L_CATEGORIES], t->p + s, t->n - s);
    }
    return;
  case A_PART:
    fs->author[r->slot].n = 0;
    put(&fs->author[r->slot], t->p + s, t->n - s);
    return;
  case A_CREATOR:
  case A_RSS_AUTHOR: {
    static const char *keys[] = {"name", "email", "uri"};
    buf v[3] = {{0}};
    char *open = r->act == A_RSS_AUTHOR ? memchr(t->p + s, '(', t->n - s) : NULL;
    if (open && t->p[t->n - 1] == ')') {
      put(&v[0], open + 1, t->p + t->n - 1 - open - 1);
      size_t e = open - t->p;
      while (e > s && t->p[e - 1] == ' ')
        e--;
      put(&v[1], t->p + s, e - s);
    } else if (r->act == A_RSS_AUTHOR && memchr(t->p + s, '@', t->n - s))
      put(&v[1], t->p + s, t->n - s);
    else
      put(&v[0], t->p + s, t->n - s);
    if (v[0].n || v[1].n) put_object(&rec->list[L_AUTHORS], 3, keys, v, 0);
    free(v[0].p);
    free(v[1].p);
    return;
  }
  default:
    if (rec->slot[r->slot].n || t->n == s) return; /* the first element giving a field wins */
    put(&rec->slot[r->slot], t->p + s, t->n - s);
    if (r->act != A_ATOM_TEXT &&
        (r->slot == S_TITLE || r->slot == S_SUMMARY || r->slot == S_CONTENT))
      rec->type[r->slot] = r->slot == S_TITLE ? "text/plain" : "text/html";
  }
}

static void end_element(void *ctx, const xmlChar *local, const xmlChar *prefix,
                        const xmlChar *uri) {
  feed_sax *fs = ctx;
  (void)local;
  (void)prefix;
  (void)uri;
  int d = fs->depth--;
  if (d == fs->capture_depth)
    end_capture(fs);
  else if (d == fs->author_depth) {
    static const char *keys[] = {"name", "email", "uri"};
    fs->author_depth = 0;
    if (fs->author[0].n || fs->author[1].n || fs->author[2].n)
      put_object(&fs->rec->list[L_AUTHORS], 3, keys, fs->author, 0);
  } else if (d == fs->image_depth)
    fs->image_depth = 0;
  else if (d == fs->pod.alternate_depth)
    podcast_end(&fs->pod, d);
  else if (d == fs->item_depth) {
    write_item(fs);
    fs->item_depth = 0;
  }
}

static void characters(void *ctx, const xmlChar *text, int len) {
  feed_sax *fs = ctx;
  if (fs->capture_depth) put(&fs->text, (const char *)text, len);
}

static void on_error(void *ctx, xmlErrorPtr error) {
  (void)error;
  ((feed_sax *)ctx)->wellformed = 0;
}

feed_sax *feed_sax_new(const char *source, FILE *out, int flush_each) {
  feed_sax *fs = calloc(1, sizeof *fs);
  fs->source = source;
  fs->out = out;
  fs->flush_each = flush_each;
  fs->wellformed = 1;
  clock_gettime(CLOCK_MONOTONIC, &fs->start);
  return fs;
}

int feed_sax_push(feed_sax *fs, const char *bytes, size_t count) {
  fs->bytes += count;
  if (fs->stopped) return -1;
  if (!fs->ctxt) {
    static xmlSAXHandler sax;
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start_element;
    sax.endElementNs = end_element;
    sax.characters = characters;
    sax.cdataBlock = characters;
    sax.serror = on_error;
    fs->ctxt = xmlCreatePushParserCtxt(&sax, fs, bytes, (int)count, fs->source);
    xmlCtxtUseOptions(fs->ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                    XML_PARSE_RECOVER);
    return 0;
  }
  if (xmlParseChunk(fs->ctxt, bytes, (int)count, 0) != 0 && fs->ctxt->disableSAX) fs->stopped = 1;
  return fs->stopped ? -1 : 0;
}

int feed_sax_finish(feed_sax *fs, const char *url, long status, const char *error_kind) {
  if (fs->ctxt && !fs->stopped) xmlParseChunk(fs->ctxt, NULL, 0, 1);
  if (!error_kind && (!fs->ctxt || fs->stopped || fs->depth > 0)) error_kind = "xml";
  if (!error_kind && !fs->version) error_kind = "not_a_feed";
  if (fs->version && !fs->feed_written) write_feed(fs);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  char tail[160];
  buf *b = &fs->line;
  PUTS(b, "{\"type\":\"end\"");
  put_field(b, "source", fs->source, strlen(fs->source));
  put_field(b, "url", url ? url : fs->source, strlen(url ? url : fs->source));
  put(b, tail, snprintf(tail, sizeof tail, ",\"ok\":%s", error_kind ? "false" : "true"));
  if (status) put(b, tail, snprintf(tail, sizeof tail, ",\"status\":%ld", status));
  put(b, tail,
      snprintf(tail, sizeof tail,
               ",\"items\":%ld,\"bytes\":%zu,\"wellformed\":%s,\"encoding\":\"utf-8\",\"elapsed_"
               "ms\":%ld",
               fs->items, fs->bytes, fs->wellformed ? "true" : "false",
               (long)((now.tv_sec - fs->start.tv_sec) * 1000 +
                      (now.tv_nsec - fs->start.tv_nsec) / 1000000)));
  if (error_kind)
    put(b, tail, snprintf(tail, sizeof tail, ",\"error\":{\"kind\":\"%s\"}", error_kind));
  write_line(fs);
  int ok = !error_kind;
  if (fs->ctxt) xmlFreeParserCtxt(fs->ctxt);
  record_free(&fs->feed);
  record_free(&fs->item);
  podcast_free(&fs->pod);
  for (int i = 0; i < 3; i++)
    free(fs->author[i].p);
  free(fs->text.p);
  free(fs->line.p);
  free(fs);
  return ok;
}
