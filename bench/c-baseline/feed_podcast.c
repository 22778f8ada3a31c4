/* See feed_podcast.h. Attributes are read when an element starts; an element with text (a
 * person's name, a soundbite's title, a season's number) is written when its text ends. */
#include "feed_podcast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pending {
  P_NONE,
  P_IT_TEXT, /* + slot */
  P_IT_DURATION = P_IT_TEXT + IT_COUNT,
  P_IT_EPISODE,
  P_IT_SEASON,
  P_IT_EXPLICIT,
  P_IT_KEYWORDS,
  P_PERSON,
  P_SOUNDBITE,
  P_SEASON,
  P_EPISODE
};

static int is(const char *a, const char *b) { return !strcmp(a, b); }

/* An attribute's value, trimmed; SAX2 hands '&' over as "&#38;" when entities are not replaced. */
static void attr(const unsigned char **attrs, int count, const char *name, buf *out) {
  out->n = 0;
  for (int i = 0; i < count; i++, attrs += 5) {
    if (strcmp((const char *)attrs[0], name)) continue;
    const char *s = (const char *)attrs[3], *end = (const char *)attrs[4], *amp;
    while (s < end && strchr(" \t\r\n", *s))
      s++;
    while (end > s && strchr(" \t\r\n", end[-1]))
      end--;
    while ((amp = memchr(s, '&', end - s)) && end - amp >= 5 && !memcmp(amp, "&#38;", 5)) {
      put(out, s, amp - s + 1);
      s = amp + 5;
    }
    put(out, s, end - s);
    return;
  }
}

/* The n bytes at s as a C string in digits (40 bytes); 0 when empty or too long for a number. */
static int terminated(const char *s, size_t n, char digits[40]) {
  if (!n || n >= 40) return 0;
  memcpy(digits, s, n);
  digits[n] = 0;
  return 1;
}

static int integer(const char *s, size_t n, long *out) {
  char digits[40], *end;
  if (!terminated(s, n, digits)) return 0;
  *out = strtol(digits, &end, 10);
  return !*end;
}

static int number(const char *s, size_t n, double *out) {
  char digits[40], *end;
  if (!terminated(s, n, digits)) return 0;
  *out = strtod(digits, &end);
  return !*end;
}

static void put_number(buf *b, double d) {
  char digits[40];
  if (d == (double)(long long)d)
    put(b, digits, snprintf(digits, sizeof digits, "%lld", (long long)d));
  else
    put(b, digits, snprintf(digits, sizeof digits, "%.17g", d));
}

static void key(buf *b, int *first, const char *k) {
  if (!*first) PUTS(b, ",");
  *first = 0;
  put_json(b, k, strlen(k));
  PUTS(b, ":");
}

static void text_field(buf *b, int *first, const char *k, const buf *v) {
  if (!v->n) return;
  key(b, first, k);
  put_json(b, v->p, v->n);
}

static void number_field(buf *b, int *first, const char *k, const buf *v) {
  double d;
  if (!number(v->p, v->n, &d)) return;
  key(b, first, k);
  put_number(b, d);
}

/* HH:MM:SS, MM:SS or seconds. */
static int duration(const char *s, size_t n, long *seconds) {
  long total = 0, part = 0;
  int parts = 0, digits = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || s[i] == ':') {
      if (!digits || ++parts > 3) return 0;
      total = total * 60 + part;
      part = digits = 0;
    } else if (s[i] >= '0' && s[i] <= '9') {
      part = part * 10 + (s[i] - '0');
      digits++;
    } else
      return 0;
  }
  *seconds = total;
  return 1;
}

static int flag(const char *s, size_t n) {
  if ((n == 3 && !memcmp(s, "yes", 3)) || (n == 4 && !memcmp(s, "true", 4)) ||
      (n == 8 && !memcmp(s, "explicit", 8)))
    return 1;
  if ((n == 2 && !memcmp(s, "no", 2)) || (n == 5 && !memcmp(s, "false", 5)) ||
      (n == 5 && !memcmp(s, "clean", 5)))
    return 0;
  return -1;
}

static int itunes_start(podcast_fields *p, const char *name, const unsigned char **attrs,
                        int count) {
  static const char *const text_names[IT_COUNT] = {"title",       "subtitle", "summary",
                                                   "episodeType", "",         "author"};
  for (int s = 0; s < IT_COUNT; s++)
    if (is(name, text_names[s])) return P_IT_TEXT + s;
  if (is(name, "image")) {
    attr(attrs, count, "href", &p->attr[0]);
    if (!p->attr[0].n) attr(attrs, count, "url", &p->attr[0]);
    if (p->attr[0].n && !p->it[IT_IMAGE].n) put(&p->it[IT_IMAGE], p->attr[0].p, p->attr[0].n);
    return P_NONE;
  }
  return is(name, "duration")   ? P_IT_DURATION
         : is(name, "episode")  ? P_IT_EPISODE
         : is(name, "season")   ? P_IT_SEASON
         : is(name, "explicit") ? P_IT_EXPLICIT
         : is(name, "keywords") ? P_IT_KEYWORDS
                                : P_NONE;
}

static int podcast_element(podcast_fields *p, const char *name, const unsigned char **attrs,
                           int count, int depth) {
  buf *a = p->attr;
  if (is(name, "transcript")) {
    static const char *keys[] = {"url", "type", "language", "rel"};
    attr(attrs, count, "url", &a[0]);
    attr(attrs, count, "type", &a[1]);
    attr(attrs, count, "language", &a[2]);
    attr(attrs, count, "rel", &a[3]);
    put_object(&p->transcripts, 4, keys, a, 0);
    return P_NONE;
  }
  if (is(name, "chapters")) {
    static const char *keys[] = {"url", "type"};
    if (p->chapters.n) return P_NONE;
    attr(attrs, count, "url", &a[0]);
    attr(attrs, count, "type", &a[1]);
    put_object(&p->chapters, 2, keys, a, 0);
    return P_NONE;
  }
  if (is(name, "person")) {
    attr(attrs, count, "role", &a[1]);
    attr(attrs, count, "group", &a[2]);
    attr(attrs, count, "href", &a[3]);
    attr(attrs, count, "img", &a[4]);
    return P_PERSON;
  }
  if (is(name, "soundbite")) {
    attr(attrs, count, "startTime", &a[0]);
    attr(attrs, count, "duration", &a[1]);
    return P_SOUNDBITE;
  }
  if (is(name, "season")) {
    if (p->season.n) return P_NONE;
    attr(attrs, count, "name", &a[1]);
    return P_SEASON;
  }
  if (is(name, "episode")) {
    if (p->episode.n) return P_NONE;
    attr(attrs, count, "display", &a[1]);
    return P_EPISODE;
  }
  if (is(name, "alternateEnclosure")) {
    buf *v = p->attr;
    int first = 1;
    static const char *names[] = {"type", "length", "bitrate", "height", "lang", "title", "rel",
                                  "default"};
    for (int i = 0; i < 8; i++)
      attr(attrs, count, names[i], &v[i]);
    PUTS(&p->alternates, ",{");
    text_field(&p->alternates, &first, "type", &v[0]);
    long whole;
    if (integer(v[1].p, v[1].n, &whole)) {
      char digits[24];
      key(&p->alternates, &first, "length");
      put(&p->alternates, digits, snprintf(digits, sizeof digits, "%ld", whole));
    }
    number_field(&p->alternates, &first, "bitrate", &v[2]);
    number_field(&p->alternates, &first, "height", &v[3]);
    text_field(&p->alternates, &first, "lang", &v[4]);
    text_field(&p->alternates, &first, "title", &v[5]);
    text_field(&p->alternates, &first, "rel", &v[6]);
    int is_default = v[7].n ? flag(v[7].p, v[7].n) : -1;
    if (is_default >= 0) {
      key(&p->alternates, &first, "default");
      if (is_default)
        PUTS(&p->alternates, "true");
      else
        PUTS(&p->alternates, "false");
    }
    p->alternate_sources.n = 0;
    p->alternate_depth = depth;
    return P_NONE;
  }
  return P_NONE;
}

int podcast_start(podcast_fields *p, int ns, const char *name, const unsigned char **attrs,
                  int count, int depth, int item_depth) {
  if (p->alternate_depth && depth == p->alternate_depth + 1) {
    if (ns == NS_URI_PODCAST && is(name, "source")) {
      attr(attrs, count, "uri", &p->attr[0]);
      if (p->attr[0].n) {
        PUTS(&p->alternate_sources, ",");
        put_json(&p->alternate_sources, p->attr[0].p, p->attr[0].n);
      }
    }
    return 0;
  }
  if (depth != item_depth + 1) return 0;
  p->pending = ns == NS_URI_ITUNES ? itunes_start(p, name, attrs, count)
                                   : podcast_element(p, name, attrs, count, depth);
  return p->pending != P_NONE;
}

static void keywords(podcast_fields *p, const char *s, size_t n) {
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && s[i] != ',') continue;
    size_t low = start, high = i;
    while (low < high && strchr(" \t\r\n", s[low]))
      low++;
    while (high > low && strchr(" \t\r\n", s[high - 1]))
      high--;
    if (high > low) {
      PUTS(&p->keywords, ",");
      put_json(&p->keywords, s + low, high - low);
      PUTS(&p->keyword_tags, ",{\"term\":");
      put_json(&p->keyword_tags, s + low, high - low);
      PUTS(&p->keyword_tags, ",\"scheme\":\"http://www.itunes.com/\"}");
    }
    start = i + 1;
  }
}

void podcast_text(podcast_fields *p, const char *s, size_t n) {
  buf *a = p->attr;
  long whole;
  int pending = p->pending;
  p->pending = P_NONE;
  if (pending >= P_IT_TEXT && pending < P_IT_TEXT + IT_COUNT) {
    buf *slot = &p->it[pending - P_IT_TEXT];
    if (!slot->n) put(slot, s, n);
    return;
  }
  switch (pending) {
  case P_IT_DURATION:
    if (duration(s, n, &whole)) {
      p->it_duration = whole;
      p->has_duration = 1;
    } else if (n) {
      p->it_duration_raw.n = 0;
      put(&p->it_duration_raw, s, n);
    }
    return;
  case P_IT_EPISODE: p->has_episode = integer(s, n, &p->it_episode); return;
  case P_IT_SEASON: p->has_season = integer(s, n, &p->it_season); return;
  case P_IT_EXPLICIT: p->explicit_flag = flag(s, n); return;
  case P_IT_KEYWORDS: keywords(p, s, n); return;
  case P_PERSON: {
    static const char *keys[] = {"name", "role", "group", "href", "img"};
    a[0].n = 0;
    put(&a[0], s, n);
    put_object(&p->persons, 5, keys, a, 0);
    return;
  }
  case P_SOUNDBITE: {
    int first = 1;
    PUTS(&p->soundbites, ",{");
    number_field(&p->soundbites, &first, "start", &a[0]);
    number_field(&p->soundbites, &first, "duration", &a[1]);
    a[2].n = 0;
    put(&a[2], s, n);
    text_field(&p->soundbites, &first, "title", &a[2]);
    PUTS(&p->soundbites, "}");
    return;
  }
  case P_SEASON:
  case P_EPISODE: {
    buf *object = pending == P_SEASON ? &p->season : &p->episode;
    int first = 1;
    a[0].n = 0;
    put(&a[0], s, n);
    PUTS(object, "{");
    number_field(object, &first, "number", &a[0]);
    text_field(object, &first, pending == P_SEASON ? "name" : "display", &a[1]);
    PUTS(object, "}");
    return;
  }
  }
}

void podcast_end(podcast_fields *p, int depth) {
  if (depth != p->alternate_depth) return;
  p->alternate_depth = 0;
  if (p->alternate_sources.n) {
    PUTS(&p->alternates, ",\"sources\":[");
    put(&p->alternates, p->alternate_sources.p + 1, p->alternate_sources.n - 1);
    PUTS(&p->alternates, "]");
  }
  PUTS(&p->alternates, "}");
}

/* ,{"term":"x"} for each "x" of a fragment of JSON strings (,"a","b"). */
static void plain_tags(buf *b, const buf *categories) {
  const char *s = categories->p, *end = s + categories->n;
  while (s < end) {
    const char *open = memchr(s, '"', end - s), *close;
    if (!open) return;
    for (close = open + 1; close < end && *close != '"'; close++)
      if (*close == '\\') close++;
    PUTS(b, ",{\"term\":");
    put(b, open, close + 1 - open);
    PUTS(b, "}");
    s = close + 1;
  }
}

static void list(buf *b, int *first, const char *k, const buf *fragment) {
  if (!fragment->n) return;
  key(b, first, k);
  PUTS(b, "[");
  put(b, fragment->p + 1, fragment->n - 1);
  PUTS(b, "]");
}

/* An object kept whole; put_object's leading ',' skipped. */
static void object(buf *b, int *first, const char *k, const buf *whole) {
  if (!whole->n) return;
  size_t comma = whole->p[0] == ',';
  key(b, first, k);
  put(b, whole->p + comma, whole->n - comma);
}

void podcast_put_json(buf *line, const podcast_fields *p, const buf *categories, int has_image) {
  if (p->it[IT_IMAGE].n && !has_image) put_field(line, "image", p->it[IT_IMAGE].p, p->it[IT_IMAGE].n);
  if (p->keyword_tags.n) {
    PUTS(line, ",\"tags\":[");
    size_t start = line->n;
    plain_tags(line, categories);
    put(line, p->keyword_tags.p, p->keyword_tags.n);
    line->p[start] = ' '; /* the first entry's ',' */
    PUTS(line, "]");
  }
  int any = p->explicit_flag >= 0 || p->has_duration || p->has_episode || p->has_season ||
            p->keywords.n || p->it_duration_raw.n;
  for (int s = 0; s < IT_COUNT; s++)
    any |= p->it[s].n != 0;
  if (any) {
    char digits[24];
    int first = 1;
    PUTS(line, ",\"itunes\":{");
    text_field(line, &first, "author", &p->it[IT_AUTHOR]);
    text_field(line, &first, "image", &p->it[IT_IMAGE]);
    if (p->explicit_flag >= 0) {
      key(line, &first, "explicit");
      if (p->explicit_flag)
        PUTS(line, "true");
      else
        PUTS(line, "false");
    }
    list(line, &first, "keywords", &p->keywords);
    text_field(line, &first, "title", &p->it[IT_TITLE]);
    text_field(line, &first, "subtitle", &p->it[IT_SUBTITLE]);
    text_field(line, &first, "summary", &p->it[IT_SUMMARY]);
    if (p->has_duration) {
      key(line, &first, "duration");
      put(line, digits, snprintf(digits, sizeof digits, "%ld", p->it_duration));
    }
    text_field(line, &first, "duration_raw", &p->it_duration_raw);
    if (p->has_episode) {
      key(line, &first, "episode");
      put(line, digits, snprintf(digits, sizeof digits, "%ld", p->it_episode));
    }
    if (p->has_season) {
      key(line, &first, "season");
      put(line, digits, snprintf(digits, sizeof digits, "%ld", p->it_season));
    }
    text_field(line, &first, "episode_type", &p->it[IT_EPISODE_TYPE]);
    PUTS(line, "}");
  }
  if (p->persons.n || p->transcripts.n || p->chapters.n || p->soundbites.n || p->season.n ||
      p->episode.n || p->alternates.n) {
    int first = 1;
    PUTS(line, ",\"podcast\":{");
    list(line, &first, "persons", &p->persons);
    list(line, &first, "transcripts", &p->transcripts);
    object(line, &first, "chapters", &p->chapters);
    list(line, &first, "soundbites", &p->soundbites);
    object(line, &first, "season", &p->season);
    object(line, &first, "episode", &p->episode);
    list(line, &first, "alternate_enclosures", &p->alternates);
    PUTS(line, "}");
  }
}

void podcast_clear(podcast_fields *p) {
  for (int s = 0; s < IT_COUNT; s++)
    p->it[s].n = 0;
  p->has_duration = p->has_episode = p->has_season = 0;
  p->explicit_flag = -1;
  p->it_duration_raw.n = p->keywords.n = p->keyword_tags.n = 0;
  p->persons.n = p->transcripts.n = p->soundbites.n = p->alternates.n = 0;
  p->chapters.n = p->season.n = p->episode.n = 0;
  p->pending = p->alternate_depth = 0;
}

void podcast_free(podcast_fields *p) {
  buf *all[] = {&p->it_duration_raw, &p->keywords,   &p->keyword_tags, &p->persons,
                &p->transcripts,     &p->soundbites, &p->alternates,   &p->alternate_sources,
                &p->chapters,        &p->season,     &p->episode};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    free(all[i]->p);
  for (int s = 0; s < IT_COUNT; s++)
    free(p->it[s].p);
  for (int i = 0; i < 8; i++)
    free(p->attr[i].p);
}
