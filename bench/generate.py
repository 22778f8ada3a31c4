#!/usr/bin/env python3
"""Deterministic feed generator for feedpull's benchmarks (python3, stdlib only).

    generate.py --format rss20|atom10|rss10|podcast|json11|rss20-short|atom10-short
                --size BYTES [--seed N]  > feed.xml
    generate.py --corpus DIR --count N --size BYTES [--seed N] [--gzip]

The first form streams one feed of about BYTES bytes to standard output: items are written as
they are made, in batches of about 1 MB, so a 1 GB feed never sits in memory or on disk (pipe it
straight into the program under test). The second form writes N feeds of about BYTES each into
DIR (formats mixed like a real subscription list: mostly RSS 2.0, some Atom 1.0 and RSS 1.0),
each also as DIR/NAME.gz when --gzip is given, for nginx's gzip_static.

The same arguments give the same bytes on every machine and every Python 3 version: one seeded
random.Random draws a pool of item bodies once, then each item takes a body from the pool and its
own index, link, id and date, so generating is cheap enough (~100+ MB/s) not to be the bottleneck.

What makes the items realistic (shaped after WordPress, Hatena and Qiita feeds): title, link,
guid/id (permalink or tag: URI), pubDate/updated in RFC 822 or RFC 3339 with several zones,
dc:creator or Atom author, two or three categories, an escaped-HTML description with
predefined and numeric character references, and content:encoded (or Atom content) HTML in a
CDATA section with HTML named entities, images and links (a quarter of them relative to the site,
some with a style or an embed's script: what a sanitizer changes); English and Japanese text mixed, so
about a third of the text bytes are multi-byte UTF-8. Every document is well-formed XML:
HTML-only entities such as &nbsp; appear only inside CDATA or escaped as &amp;nbsp;.

The `-short` formats are the same RSS 2.0 and Atom 1.0 with items of about 1.7 KB, as most news
and blog feeds write them: a one- or two-sentence description, a short HTML body with a few
links, English and Japanese. Their cost is the cost of an item more than of its bytes.
"""

import argparse
import gzip
import json
import os
import random
import sys
import time

POOL_SIZE = 61
BATCH_BYTES = 1 << 20
BASE_TIME = 1795000000  # 2026-11-18T...Z: a fixed clock, so output never depends on today

ENGLISH_WORDS = (
    "feed parser stream item channel release notes update server client network cache "
    "request response header body chunk buffer thread loop event socket timeout retry "
    "swift linux debian package build test benchmark memory latency throughput design "
    "reader subscription archive article author editor summary content category tag "
    "morning evening weekend city train station coffee library garden mountain river "
    "quickly slowly carefully finally simply nearly always often rarely never today"
).split()

JAPANESE_PHRASES = (
    "東京の天気は晴れのち曇り",
    "新しいバージョンを公開しました",
    "詳しくは以下の記事をご覧ください",
    "パフォーマンスが大幅に改善されました",
    "週末に京都へ行ってきました",
    "本日のニュースをお届けします",
    "ストリーミングパーサーの設計について",
    "メモリ使用量を計測してみた",
    "ご意見・ご感想をお待ちしております",
    "第三回勉強会のお知らせ",
    "日本語と英語が混在するテキスト",
    "桜の季節になりました",
)

CATEGORIES = (
    "Swift", "Linux", "Networking", "XML", "Performance", "Release", "Tutorial",
    "ニュース", "技術", "日記", "お知らせ", "イベント", "Open Source", "Q&A",
)

AUTHORS = (
    ("Alice Example", "alice@example.com"),
    ("Bob O'Neil", "bob@example.net"),
    ("山田 太郎", "taro@example.com"),
    ("佐藤 花子", "hanako@example.net"),
    ("Chris \"CJ\" Jones", "cj@example.org"),
)

HTML_ENTITIES_IN_CDATA = ("&nbsp;", "&eacute;", "&hellip;", "&mdash;", "&amp;", "&copy;")

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
ZONES = ((0, "+0000", "Z"), (9 * 60, "+0900", "+09:00"), (-5 * 60, "-0500", "-05:00"),
         (0, "GMT", "+00:00"), (60, "+0100", "+01:00"))

NS_RSS20 = ('xmlns:content="http://purl.org/rss/1.0/modules/content/" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:atom="http://www.w3.org/2005/Atom"')


def xml_escape(text):
    """Escapes text for element content and attribute values."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


class TextSource:
    """Seeded sentences and paragraphs, English and Japanese mixed."""

    def __init__(self, rng):
        self.rng = rng
        # The markup a sanitizer must change (relative links and images, embeds, styles) is
        # drawn from a second generator, so that the texts the first one draws stay the same.
        self.markup_rng = random.Random("markup")

    def english(self, words):
        text = " ".join(self.rng.choice(ENGLISH_WORDS) for _ in range(words))
        return text[0].upper() + text[1:]

    def sentence(self):
        if self.rng.random() < 0.4:
            return self.rng.choice(JAPANESE_PHRASES) + "。" + self.rng.choice(JAPANESE_PHRASES) + "。"
        return self.english(self.rng.randint(8, 18)) + "."

    def paragraph(self):
        return " ".join(self.sentence() for _ in range(self.rng.randint(2, 5)))

    def title(self):
        if self.rng.random() < 0.5:
            return self.rng.choice(JAPANESE_PHRASES) + ": " + self.english(self.rng.randint(2, 5))
        return self.english(self.rng.randint(4, 9)) + " & " + self.english(2) + "\u2019s notes"

    def html_body(self, item_link):
        """HTML as a blog engine writes it into content:encoded (raw, for a CDATA section)."""
        parts = []
        for n in range(self.rng.randint(1, 6)):
            parts.append("<p>" + self.paragraph() + self.rng.choice(HTML_ENTITIES_IN_CDATA) + "</p>")
            if n % 2 == 1:
                parts.append('<p><img src="https://cdn.example.com/img/%d.jpg" alt="%s" '
                             'width="640" height="480"/></p>' % (self.rng.randint(1, 99999),
                                                                 xml_escape(self.english(3))))
            if self.rng.random() < 0.3:
                parts.append('<blockquote><a href="%s#more">%s</a> &laquo;%s&raquo;</blockquote>'
                             % (item_link, self.english(2), self.rng.choice(JAPANESE_PHRASES)))
        extra = self.markup_rng
        if extra.random() < 0.25:
            # Links and images relative to the site, as WordPress themes and Hugo write them.
            parts.append('<p>See <a href="/archive/%d/">the archive</a> and <a href="../related/">'
                         'related posts</a>.</p>' % extra.randint(2001, 2026))
            parts.append('<figure><img src="/wp-content/uploads/%d.png" alt="chart" width="300"/>'
                         '<figcaption>Figure</figcaption></figure>' % extra.randint(1, 9999))
        if extra.random() < 0.1:
            parts.append('<p style="text-align: center; position: relative">Centred</p>')
        if extra.random() < 0.1:
            # An embed's script, the commonest thing a sanitizer removes from real feeds.
            parts.append('<blockquote class="embed"><a href="https://social.example/p/%d">post</a>'
                         '</blockquote><script async src="https://social.example/embed.js">'
                         '</script>' % extra.randint(1, 99999))
        return "\n".join(parts)

    def short_html_body(self, item_link):
        """A news item's body: a paragraph or two and a few links (raw, for a CDATA section)."""
        parts = []
        for n in range(self.rng.randint(2, 3)):
            links = " ".join('<a href="https://example.com/tags/%d">%s</a>'
                             % (self.rng.randint(1, 999), self.english(1))
                             for _ in range(self.rng.randint(1, 3)))
            sentences = " ".join(self.sentence() for _ in range(self.rng.randint(2, 3)))
            parts.append("<p>%s %s%s</p>" % (sentences, links,
                                             self.rng.choice(HTML_ENTITIES_IN_CDATA)))
        parts.append('<p><a href="%s#more">%s</a></p>' % (item_link, self.rng.choice(JAPANESE_PHRASES)))
        return "\n".join(parts)

    def short_html_summary(self):
        """One sentence of escaped HTML, as a news feed's description."""
        return xml_escape("<p>%s&#8230;</p>" % self.sentence()).replace("&amp;#8230;", "&#8230;")

    def html_summary(self):
        """A short HTML summary, escaped into the element (with &#NNNN; and &amp;nbsp;)."""
        html = "<p>%s&#8230; <em>%s</em>&nbsp;&amp;</p>" % (self.paragraph(), self.english(2))
        return xml_escape(html).replace("&amp;#8230;", "&#8230;")


class Body:
    """One pooled item body: everything except the per-item index, link, id and date."""

    def __init__(self, text, rng, short=False):
        self.title = text.title()
        if short:
            self.html = text.short_html_body("https://example.com/posts/N")
            self.summary = text.short_html_summary()
        else:
            self.html = text.html_body("https://example.com/posts/N")
            self.summary = text.html_summary()
        self.author = rng.choice(AUTHORS)
        self.categories = rng.sample(CATEGORIES, rng.randint(2, 3))
        self.enclosure = rng.random() < 0.2
        self.permalink_guid = rng.random() < 0.5
        self.zone = rng.choice(ZONES)
        self.title_is_html = rng.random() < 0.3


def rfc822(seconds, zone):
    offset, rfc822_zone, _ = zone
    t = time.gmtime(seconds + offset * 60)
    return "%s, %02d %s %04d %02d:%02d:%02d %s" % (
        DAYS[t.tm_wday], t.tm_mday, MONTHS[t.tm_mon - 1], t.tm_year, t.tm_hour, t.tm_min,
        t.tm_sec, rfc822_zone)


def rfc3339(seconds, zone):
    offset, _, rfc3339_zone = zone
    t = time.gmtime(seconds + offset * 60)
    return "%04d-%02d-%02dT%02d:%02d:%02d%s" % (
        t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, rfc3339_zone)


def item_time(index):
    """Newest first, one item every 7 minutes 13 seconds."""
    return BASE_TIME - index * 433


class RSS20:
    def head(self, text, seed):
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<rss version="2.0" %s>\n<channel>\n'
                '<title>%s</title>\n<link>https://example.com/</link>\n'
                '<description>%s</description>\n<language>ja</language>\n'
                '<lastBuildDate>%s</lastBuildDate>\n'
                '<atom:link href="https://example.com/feed/%d.xml" rel="self" '
                'type="application/rss+xml"/>\n<generator>generate.py</generator>\n'
                '<image><url>https://example.com/logo.png</url><title>logo</title>'
                '<link>https://example.com/</link></image>\n'
                % (NS_RSS20, xml_escape(text.title()), xml_escape(text.sentence()),
                   rfc822(BASE_TIME, ZONES[1]), seed))

    def item(self, body, index):
        link = "https://example.com/posts/%d" % index
        guid = ('<guid>%s</guid>' % link if body.permalink_guid else
                '<guid isPermaLink="false">tag:example.com,2026:post-%d</guid>' % index)
        enclosure = ('<enclosure url="https://cdn.example.com/audio/%d.mp3" length="%d" '
                     'type="audio/mpeg"/>\n' % (index, 1000000 + index) if body.enclosure else "")
        categories = "".join("<category>%s</category>" % xml_escape(c) for c in body.categories)
        return ('<item>\n<title>%s #%d</title>\n<link>%s</link>\n%s\n<pubDate>%s</pubDate>\n'
                '<dc:creator>%s</dc:creator>\n%s\n<comments>%s#comments</comments>\n'
                '<description>%s</description>\n'
                '<content:encoded><![CDATA[%s]]></content:encoded>\n%s</item>\n'
                % (xml_escape(body.title), index, link, guid,
                   rfc822(item_time(index), body.zone), xml_escape(body.author[0]), categories,
                   link, body.summary, body.html.replace("posts/N", "posts/%d" % index),
                   enclosure))

    tail = "</channel>\n</rss>\n"


class Atom10:
    def head(self, text, seed):
        return ('<?xml version="1.0" encoding="utf-8"?>\n'
                '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="ja">\n'
                '<title type="text">%s</title>\n<subtitle>%s</subtitle>\n'
                '<id>tag:example.com,2026:feed-%d</id>\n<updated>%s</updated>\n'
                '<link rel="alternate" type="text/html" href="https://example.com/"/>\n'
                '<link rel="self" type="application/atom+xml" href="https://example.com/atom/%d"/>\n'
                '<author><name>Alice Example</name><uri>https://example.com/alice</uri></author>\n'
                '<generator uri="https://example.com/gen" version="1.0">generate.py</generator>\n'
                '<icon>https://example.com/favicon.ico</icon>\n'
                '<logo>https://example.com/logo.png</logo>\n<rights>&#169; 2026 Example</rights>\n'
                % (xml_escape(text.title()), xml_escape(text.sentence()), seed,
                   rfc3339(BASE_TIME, ZONES[0]), seed))

    def item(self, body, index):
        link = "https://example.com/entries/%d" % index
        title = ('<title type="html">%s #%d &lt;em&gt;new&lt;/em&gt;</title>'
                 % (xml_escape(xml_escape(body.title)), index) if body.title_is_html else
                 '<title>%s #%d</title>' % (xml_escape(body.title), index))
        enclosure = ('<link rel="enclosure" type="audio/mpeg" length="%d" '
                     'href="https://cdn.example.com/audio/%d.mp3"/>\n'
                     % (1000000 + index, index) if body.enclosure else "")
        categories = "".join('<category term="%s"/>' % xml_escape(c) for c in body.categories)
        return ('<entry>\n%s\n<link rel="alternate" type="text/html" href="%s"/>\n%s'
                '<id>tag:example.com,2026:entry-%d</id>\n'
                '<published>%s</published>\n<updated>%s</updated>\n'
                '<author><name>%s</name><email>%s</email></author>\n%s\n'
                '<summary type="html">%s</summary>\n'
                '<content type="html"><![CDATA[%s]]></content>\n</entry>\n'
                % (title, link, enclosure, index, rfc3339(item_time(index), body.zone),
                   rfc3339(item_time(index) + 3600, body.zone), xml_escape(body.author[0]),
                   body.author[1], categories, body.summary,
                   body.html.replace("posts/N", "entries/%d" % index)))

    tail = "</feed>\n"


class RSS10:
    def head(self, text, seed):
        # RDF's channel normally lists every item in <items><rdf:Seq>; a streamed feed of
        # unknown length cannot, and no feed reader needs it, so the list names the first few.
        seq = "".join('<rdf:li rdf:resource="https://example.com/articles/%d"/>' % i
                      for i in range(5))
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                'xmlns="http://purl.org/rss/1.0/" '
                'xmlns:content="http://purl.org/rss/1.0/modules/content/" '
                'xmlns:dc="http://purl.org/dc/elements/1.1/" xml:lang="ja">\n'
                '<channel rdf:about="https://example.com/rdf/%d">\n<title>%s</title>\n'
                '<link>https://example.com/</link>\n<description>%s</description>\n'
                '<dc:date>%s</dc:date>\n<items><rdf:Seq>%s</rdf:Seq></items>\n</channel>\n'
                % (seed, xml_escape(text.title()), xml_escape(text.sentence()),
                   rfc3339(BASE_TIME, ZONES[1]), seq))

    def item(self, body, index):
        link = "https://example.com/articles/%d" % index
        categories = "".join("<dc:subject>%s</dc:subject>" % xml_escape(c)
                             for c in body.categories)
        return ('<item rdf:about="%s">\n<title>%s #%d</title>\n<link>%s</link>\n'
                '<description>%s</description>\n<dc:creator>%s</dc:creator>\n'
                '<dc:date>%s</dc:date>\n%s\n'
                '<content:encoded><![CDATA[%s]]></content:encoded>\n</item>\n'
                % (link, xml_escape(body.title), index, link, body.summary,
                   xml_escape(body.author[0]), rfc3339(item_time(index), body.zone), categories,
                   body.html.replace("posts/N", "articles/%d" % index)))

    tail = "</rdf:RDF>\n"


NS_PODCAST = ('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
              'xmlns:podcast="https://podcastindex.org/namespace/1.0"')


class Podcast(RSS20):
    """RSS 2.0 with the iTunes and Podcasting 2.0 tags a podcast host writes on every episode
    (the podcast benchmark): the same items as RSS 2.0, each with an enclosure and about 1 KB of
    namespaced elements."""

    def head(self, text, seed):
        head = RSS20.head(self, text, seed).replace(NS_RSS20, NS_RSS20 + " " + NS_PODCAST, 1)
        return head + ('<itunes:author>Alice Example</itunes:author>\n'
                       '<itunes:owner><itunes:name>Alice Example</itunes:name>'
                       '<itunes:email>alice@example.com</itunes:email></itunes:owner>\n'
                       '<itunes:image href="https://example.com/cover.jpg"/>\n'
                       '<itunes:category text="Technology"><itunes:category text="Tech News"/>'
                       '</itunes:category>\n<itunes:explicit>false</itunes:explicit>\n'
                       '<itunes:type>episodic</itunes:type>\n'
                       '<podcast:guid>ead4c236-bf58-58c6-a2c6-a6b28d128cb6</podcast:guid>\n'
                       '<podcast:locked owner="alice@example.com">yes</podcast:locked>\n'
                       '<podcast:funding url="https://example.com/donate">Support us</podcast:funding>\n')

    def item(self, body, index):
        rss = RSS20.item(self, body, index)
        if not body.enclosure:
            rss = rss.replace("</item>\n", '<enclosure url="https://cdn.example.com/audio/%d.mp3" '
                              'length="%d" type="audio/mpeg"/>\n</item>\n'
                              % (index, 1000000 + index))
        seconds = 600 + index * 37 % 5400
        tags = ('<itunes:title>%s</itunes:title>\n'
                '<itunes:duration>%d:%02d:%02d</itunes:duration>\n'
                '<itunes:episode>%d</itunes:episode>\n<itunes:season>%d</itunes:season>\n'
                '<itunes:episodeType>full</itunes:episodeType>\n'
                '<itunes:explicit>%s</itunes:explicit>\n'
                '<itunes:image href="https://cdn.example.com/art/%d.jpg"/>\n'
                '<itunes:summary>%s</itunes:summary>\n'
                '<itunes:keywords>%s</itunes:keywords>\n'
                '<podcast:transcript url="https://cdn.example.com/t/%d.vtt" type="text/vtt" '
                'language="en" rel="captions"/>\n'
                '<podcast:chapters url="https://cdn.example.com/c/%d.json" '
                'type="application/json+chapters"/>\n'
                '<podcast:person role="host" img="https://example.com/alice.jpg" '
                'href="https://example.com/alice">Alice Example</podcast:person>\n'
                '<podcast:person role="guest" group="cast">%s</podcast:person>\n'
                '<podcast:season name="Season %d">%d</podcast:season>\n'
                '<podcast:episode>%d</podcast:episode>\n'
                '<podcast:soundbite startTime="%d.5" duration="45.0">Best bit</podcast:soundbite>\n'
                '<podcast:alternateEnclosure type="audio/opus" length="%d" bitrate="64000">'
                '<podcast:source uri="https://cdn.example.com/audio/%d.opus"/>'
                '</podcast:alternateEnclosure>\n'
                % (xml_escape(body.title), seconds // 3600, seconds // 60 % 60, seconds % 60,
                   index, index // 50 + 1, "yes" if index % 9 == 0 else "no", index,
                   xml_escape(body.title), ",".join(xml_escape(c) for c in body.categories),
                   index, index, xml_escape(body.author[0]), index // 50 + 1, index // 50 + 1,
                   index, index % 600, 500000 + index, index))
        return rss.replace("</item>\n", tags + "</item>\n")


class JSONFeed11:
    """The RSS 2.0 items as a JSON Feed 1.1 (the same pool and seed: the same item texts)."""

    def head(self, text, seed):
        return ('{"version": "https://jsonfeed.org/version/1.1", "title": %s, '
                '"home_page_url": "https://example.com/", '
                '"feed_url": "https://example.com/feed/%d.json", "description": %s, '
                '"language": "ja", "icon": "https://example.com/logo.png", "items": [\n'
                % (json.dumps(text.title(), ensure_ascii=False), seed,
                   json.dumps(text.sentence(), ensure_ascii=False)))

    def item(self, body, index):
        link = "https://example.com/posts/%d" % index
        item = {
            "id": link if body.permalink_guid else "tag:example.com,2026:post-%d" % index,
            "url": link,
            "title": "%s #%d" % (body.title, index),
            "content_html": body.html.replace("posts/N", "posts/%d" % index),
            "summary": body.summary,
            "date_published": rfc3339(item_time(index), body.zone),
            "authors": [{"name": body.author[0]}],
            "tags": body.categories,
        }
        if body.enclosure:
            item["attachments"] = [{"url": "https://cdn.example.com/audio/%d.mp3" % index,
                                    "mime_type": "audio/mpeg", "size_in_bytes": 1000000 + index}]
        return ("," if index > 0 else "") + json.dumps(item, ensure_ascii=False) + "\n"

    tail = "]}\n"


FORMATS = {"rss20": RSS20, "atom10": Atom10, "rss10": RSS10, "podcast": Podcast,
           "json11": JSONFeed11, "rss20-short": RSS20, "atom10-short": Atom10}


def generate(fmt, size, seed, write):
    """Calls write(bytes) with consecutive pieces of one feed of about `size` bytes.

    Stops before the item that would pass `size` (so a feed is at most `size` bytes unless even
    its first item does not fit); always writes at least one item and a well-formed end.
    """
    rng = random.Random("%s-%d" % ("rss20" if fmt == "json11" else fmt, seed))
    text = TextSource(rng)
    shape = FORMATS[fmt]()
    pool = [Body(text, rng, short=fmt.endswith("-short")) for _ in range(POOL_SIZE)]
    # Each seed is its own site, so that feeds of a corpus do not share item ids and links
    # (a reader such as newsboat keeps one copy of an item per guid across all its feeds).
    site = "blog%d.example.com" % seed

    def localize(xml):
        return xml.replace("//example.com/", "//%s/" % site).replace("tag:example.com,", "tag:%s," % site)

    head = localize(shape.head(text, seed)).encode()
    tail = shape.tail.encode()
    written = len(head)
    batch = [head]
    batch_bytes = len(head)
    index = 0
    while True:
        item = localize(shape.item(pool[(index * 7 + seed) % POOL_SIZE], index)).encode()
        if index > 0 and written + len(item) + len(tail) > size:
            break
        batch.append(item)
        written += len(item)
        batch_bytes += len(item)
        index += 1
        if batch_bytes >= BATCH_BYTES:
            write(b"".join(batch))
            batch = []
            batch_bytes = 0
    batch.append(tail)
    write(b"".join(batch))
    return written + len(tail)


def write_corpus(directory, count, size, seed, with_gzip):
    """N feeds named 0000.xml…, formats mixed 7:2:1 (RSS 2.0, Atom 1.0, RSS 1.0)."""
    os.makedirs(directory, exist_ok=True)
    mix = ("rss20",) * 7 + ("atom10",) * 2 + ("rss10",)
    width = max(4, len(str(count - 1)))
    for n in range(count):
        pieces = []
        generate(mix[n % len(mix)], size, seed + n, pieces.append)
        data = b"".join(pieces)
        path = os.path.join(directory, "%0*d.xml" % (width, n))
        with open(path, "wb") as f:
            f.write(data)
        if with_gzip:
            with open(path + ".gz", "wb") as f:
                f.write(gzip.compress(data, compresslevel=6, mtime=0))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--format", choices=sorted(FORMATS), default="rss20")
    parser.add_argument("--size", type=int, required=True, help="bytes (about)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", metavar="DIR", help="write --count feeds into DIR")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--gzip", action="store_true", help="with --corpus: also NAME.gz")
    args = parser.parse_args()
    if args.corpus:
        write_corpus(args.corpus, args.count, args.size, args.seed, args.gzip)
        return 0
    out = sys.stdout.buffer
    try:
        generate(args.format, args.size, args.seed, out.write)
        out.flush()
    except BrokenPipeError:
        # The reader stopped early (a benchmark that only wants the first item): not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
