/* See json_buf.h. */
#include "json_buf.h"

#include <stdint.h>
#include <stdio.h>

/* Whether any of 8 bytes is '"', '\\' or below 0x20 (may say yes for a byte >= 0x80 after one
 * of those; the byte loop then decides). */
static int word_needs_escape(uint64_t w) {
  const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  uint64_t quote = w ^ (ones * '"'), slash = w ^ (ones * '\\');
  return (((w - ones * 0x20) & ~w) | ((quote - ones) & ~quote) | ((slash - ones) & ~slash)) & high
             ? 1
             : 0;
}

/* A JSON string: quotes, backslash and C0 controls escaped; UTF-8 passes through. */
void put_json(buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  size_t run = 0, i = 0;
  PUTS(b, "\"");
  while (i < n) {
    uint64_t w;
    if (n - i >= 8 && (memcpy(&w, s + i, 8), !word_needs_escape(w))) {
      i += 8;
      continue;
    }
    unsigned char c = (unsigned char)s[i++];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    put(b, s + run, i - 1 - run);
    run = i;
    if (c == '"')
      PUTS(b, "\\\"");
    else if (c == '\\')
      PUTS(b, "\\\\");
    else if (c == '\n')
      PUTS(b, "\\n");
    else if (c == '\t')
      PUTS(b, "\\t");
    else if (c == '\r')
      PUTS(b, "\\r");
    else {
      char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      put(b, u, 6);
    }
  }
  put(b, s + run, n - run);
  PUTS(b, "\"");
}

/* ,"key":"value" when value is not empty. */
void put_field(buf *b, const char *key, const char *s, size_t n) {
  if (n == 0) return;
  PUTS(b, ",\"");
  put(b, key, strlen(key));
  PUTS(b, "\":");
  put_json(b, s, n);
}

/* ,{"key":"value",...} for a list entry, from (key, value) pairs; empty values left out, and
 * with numeric_last the last value only when it is an integer (the output's `length`). */
void put_object(buf *list, int pairs, const char **keys, buf *values, int numeric_last) {
  int first = 1;
  PUTS(list, ",{");
  for (int i = 0; i < pairs; i++) {
    if (!values[i].n) continue;
    long long number = 0;
    if (numeric_last && i == pairs - 1) {
      char *end;
      values[i].p[values[i].n] = 0;
      number = strtoll(values[i].p, &end, 10);
      if (*end) continue;
    }
    if (!first) PUTS(list, ",");
    first = 0;
    put_json(list, keys[i], strlen(keys[i]));
    PUTS(list, ":");
    if (numeric_last && i == pairs - 1) {
      char digits[24];
      put(list, digits, snprintf(digits, sizeof digits, "%lld", number));
    } else
      put_json(list, values[i].p, values[i].n);
  }
  PUTS(list, "}");
}
