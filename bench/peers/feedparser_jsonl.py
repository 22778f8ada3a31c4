#!/usr/bin/env python3
"""feedparser_jsonl.py FILE: Python's feedparser doing feedpull's work, one JSON line per item.

The peer most scripts use. feedparser reads the whole document before it returns (no item
comes out early), so this is its throughput only.
"""

import json
import sys

import feedparser

FIELDS = ("id", "title", "link", "summary", "published", "updated", "comments")


def main():
    source = sys.argv[1]
    parsed = feedparser.parse(source)
    out = sys.stdout
    for index, entry in enumerate(parsed.entries):
        record = {"type": "item", "source": source, "index": index}
        for key in FIELDS:
            if entry.get(key):
                record[key] = entry[key]
        if entry.get("content"):
            record["content"] = entry["content"][0].get("value", "")
        if entry.get("authors"):
            record["authors"] = [dict(a) for a in entry["authors"]]
        if entry.get("tags"):
            record["categories"] = [t.get("term") for t in entry["tags"]]
        if entry.get("enclosures"):
            record["enclosures"] = [dict(e) for e in entry["enclosures"]]
        out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    out.write(json.dumps({"type": "end", "source": source, "ok": not parsed.bozo,
                          "items": len(parsed.entries)}, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
