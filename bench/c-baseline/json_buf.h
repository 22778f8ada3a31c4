/* JSON Lines output for the C baselines: a growable byte buffer and JSON string escaping. */
#ifndef JSON_BUF_H
#define JSON_BUF_H

#include <stdlib.h>
#include <string.h>

typedef struct {
  char *p;
  size_t n, cap;
} buf;

/* Appends n bytes (inline: it runs for every piece of every record). */
static inline void put(buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
}
#define PUTS(b, lit) put((b), (lit), sizeof(lit) - 1)

/* A JSON string: quotes, backslash and C0 controls escaped; UTF-8 passes through. */
void put_json(buf *b, const char *s, size_t n);

/* ,"key":"value" when value is not empty. */
void put_field(buf *b, const char *key, const char *s, size_t n);

/* ,{"key":"value",...} for a list entry, from (key, value) pairs; empty values left out, and
 * with numeric_last the last value only when it is an integer (the output's `length`). */
void put_object(buf *list, int pairs, const char **keys, buf *values, int numeric_last);

#endif
