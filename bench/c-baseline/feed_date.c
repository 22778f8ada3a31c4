/* Feed dates to RFC 3339 UTC ("2011-10-19T01:35:15Z"), as feedpull writes them: RFC 822
 * ("Wed, 19 Oct 2011 10:35:15 +0900", named US zones, no seconds, two-digit years) and
 * W3C-DTF / RFC 3339 ("2011-10-19T10:35:15.25+09:00", date only). Returns 0 when unreadable. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, int m, int d) {
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400;
  long yoe = y - era * 400;
  long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

static void civil_from_days(long z, long *y, int *m, int *d) {
  z += 719468;
  long era = (z >= 0 ? z : z - 146096) / 146097;
  long doe = z - era * 146097;
  long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  long mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

static int number(const char **p, const char *end, int max_digits, long *out) {
  int n = 0;
  *out = 0;
  while (*p < end && n < max_digits && isdigit((unsigned char)**p)) {
    *out = *out * 10 + (**p - '0');
    (*p)++;
    n++;
  }
  return n;
}

static int format(long y, int mo, int d, long h, long mi, long s, long offset_min, char out[32]) {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return 0;
  long t = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi - offset_min) * 60 + s;
  long days = t >= 0 ? t / 86400 : (t - 86399) / 86400, rem = t - days * 86400;
  civil_from_days(days, &y, &mo, &d);
  if (y < 0 || y > 9999) return 0;
  snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02dZ", (int)y, mo, d, (int)(rem / 3600),
           (int)(rem / 60 % 60), (int)(rem % 60));
  return 1;
}

static int zone_minutes(const char *p, const char *end, long *offset) {
  static const struct {
    const char *name;
    int hours;
  } names[] = {{"GMT", 0},  {"UTC", 0},  {"UT", 0},   {"Z", 0},    {"EST", -5},
               {"EDT", -4}, {"CST", -6}, {"CDT", -5}, {"MST", -7}, {"MDT", -6},
               {"PST", -8}, {"PDT", -7}, {"JST", 9}};
  while (p < end && *p == ' ')
    p++;
  if (p == end) {
    *offset = 0;
    return 1;
  }
  if (*p == '+' || *p == '-') {
    int sign = *p++ == '-' ? -1 : 1;
    long hh, mm = 0;
    if (number(&p, end, 2, &hh) != 2) return 0;
    if (p < end && *p == ':') p++;
    number(&p, end, 2, &mm);
    *offset = sign * (hh * 60 + mm);
    return 1;
  }
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    size_t n = strlen(names[i].name);
    if ((size_t)(end - p) >= n && !strncasecmp(p, names[i].name, n)) {
      *offset = names[i].hours * 60;
      return 1;
    }
  }
  return 0;
}

static int rfc822(const char *p, const char *end, char out[32]) {
  static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";
  long day, year, h, mi, s = 0, offset;
  const char *comma = memchr(p, ',', end - p);
  if (comma) p = comma + 1;
  while (p < end && *p == ' ')
    p++;
  if (!number(&p, end, 2, &day) || end - p < 5 || *p++ != ' ') return 0;
  char mon[4] = {(char)tolower((unsigned char)p[0]), (char)tolower((unsigned char)p[1]),
                 (char)tolower((unsigned char)p[2]), 0};
  const char *m = strstr(months, mon);
  if (!m || (m - months) % 3) return 0;
  p += 3;
  while (p < end && (*p == ' ' || isalpha((unsigned char)*p)))
    p++;
  int digits = number(&p, end, 4, &year);
  if (digits == 2)
    year += year < 50 ? 2000 : 1900;
  else if (digits != 4)
    return 0;
  while (p < end && *p == ' ')
    p++;
  if (number(&p, end, 2, &h) < 1 || p == end || *p++ != ':' || number(&p, end, 2, &mi) != 2)
    return 0;
  if (p < end && *p == ':') {
    p++;
    number(&p, end, 2, &s);
  }
  if (!zone_minutes(p, end, &offset)) return 0;
  return format(year, (int)((m - months) / 3 + 1), (int)day, h, mi, s, offset, out);
}

static int w3cdtf(const char *p, const char *end, char out[32]) {
  long y, mo = 1, d = 1, h = 0, mi = 0, s = 0, offset = 0;
  if (number(&p, end, 4, &y) != 4) return 0;
  if (p < end && *p == '-') {
    p++;
    if (number(&p, end, 2, &mo) != 2) return 0;
  }
  if (p < end && *p == '-') {
    p++;
    if (number(&p, end, 2, &d) != 2) return 0;
  }
  if (p < end && (*p == 'T' || *p == 't' || *p == ' ')) {
    p++;
    if (number(&p, end, 2, &h) != 2 || p == end || *p++ != ':' || number(&p, end, 2, &mi) != 2)
      return 0;
    if (p < end && *p == ':') {
      p++;
      number(&p, end, 2, &s);
    }
    if (p < end && *p == '.') {
      p++;
      long frac;
      while (number(&p, end, 9, &frac) == 9) {}
    }
    if (!zone_minutes(p, end, &offset)) return 0;
  } else if (p != end)
    return 0;
  return format(y, (int)mo, (int)d, h, mi, s, offset, out);
}

int feed_date_rfc3339(const char *s, size_t n, char out[32]) {
  const char *end = s + n;
  while (s < end && isspace((unsigned char)*s))
    s++;
  while (end > s && isspace((unsigned char)end[-1]))
    end--;
  if (end - s >= 10 && isdigit((unsigned char)s[0]) && s[4] == '-') return w3cdtf(s, end, out);
  return rfc822(s, end, out);
}
