import Testing

@testable import FeedParser

/// Date forms seen in feeds → the RFC 3339 UTC instant they name. Each row is one form; the
/// comment says where it comes from when that is not obvious.
private let readableDates: [(String, String)] = [
  // RFC 822 / 1123 / 2822.
  ("Thu, 01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("Sat, 07 Sep 2002 00:00:01 GMT", "2002-09-07T00:00:01Z"),
  ("Wed, 19 Oct 2011 01:35:15 +0000", "2011-10-19T01:35:15Z"),
  ("Wed, 19 Oct 2011 01:35:15 UT", "2011-10-19T01:35:15Z"),
  ("Wed, 19 Oct 2011 01:35:15 Z", "2011-10-19T01:35:15Z"),
  // Japanese blogs: JST written as an offset, a colon offset, a name, or with a comment.
  ("Sat, 01 Nov 2025 09:30:00 +0900", "2025-11-01T00:30:00Z"),
  ("Sat, 01 Nov 2025 09:30:00 +09:00", "2025-11-01T00:30:00Z"),
  ("Sat, 01 Nov 2025 09:30:00 JST", "2025-11-01T00:30:00Z"),
  ("Sat, 01 Nov 2025 09:30:00 +0900 (JST)", "2025-11-01T00:30:00Z"),
  ("Sat, 01 Nov 2025 09:30:00 KST", "2025-11-01T00:30:00Z"),
  // North American zones (RFC 822 §5).
  ("Mon, 15 Jan 2024 08:00:00 EST", "2024-01-15T13:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 EDT", "2024-07-15T12:00:00Z"),
  ("Mon, 15 Jan 2024 08:00:00 CST", "2024-01-15T14:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 CDT", "2024-07-15T13:00:00Z"),
  ("Mon, 15 Jan 2024 08:00:00 MST", "2024-01-15T15:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 MDT", "2024-07-15T14:00:00Z"),
  ("Mon, 15 Jan 2024 08:00:00 PST", "2024-01-15T16:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 PDT", "2024-07-15T15:00:00Z"),
  // European zones.
  ("Mon, 15 Jan 2024 08:00:00 CET", "2024-01-15T07:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 CEST", "2024-07-15T06:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 BST", "2024-07-15T07:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 Etc/GMT", "2024-07-15T08:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 GMT+1", "2024-07-15T07:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 GMT-05:00", "2024-07-15T13:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 UTC+0530", "2024-07-15T02:30:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 -0330", "2024-07-15T11:30:00Z"),
  // Military letters, with RFC 822's signs (A is one hour west), as feedparser reads them.
  ("Mon, 15 Jul 2024 08:00:00 A", "2024-07-15T09:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 N", "2024-07-15T07:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 M", "2024-07-15T20:00:00Z"),
  ("Mon, 15 Jul 2024 08:00:00 Y", "2024-07-14T20:00:00Z"),
  // Missing parts.
  ("Thu, 01 Jan 2004 19:48 GMT", "2004-01-01T19:48:00Z"),
  ("01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("Thu, 01 Jan 2004 19:48:21", "2004-01-01T19:48:21Z"),
  ("Thu, 01 Jan 2004", "2004-01-01T00:00:00Z"),
  ("1 Jan 2004 9:05:03 GMT", "2004-01-01T09:05:03Z"),
  // A wrong weekday is ignored (the date wins), as is a full weekday name.
  ("Mon, 01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("Thursday, 01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  // Two-digit years, feedparser's rule: 90–99 are the 1990s, 00–89 the 2000s.
  ("Thu, 01 Jan 04 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("Fri, 31 Dec 99 23:59:59 GMT", "1999-12-31T23:59:59Z"),
  ("Sun, 01 Jan 89 00:00:00 GMT", "2089-01-01T00:00:00Z"),
  // Spacing, commas, case, full month names, swapped day and month.
  ("  Thu,  01   Jan 2004   19:48:21   GMT  ", "2004-01-01T19:48:21Z"),
  ("Thu,01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("thu, 01 jan 2004 19:48:21 gmt", "2004-01-01T19:48:21Z"),
  ("THU, 01 JAN 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("Thu, 01 January 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("Wed, 01 Sept. 2004 19:48:21 GMT", "2004-09-01T19:48:21Z"),
  ("Thu, Jan 01 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("January 1, 2004", "2004-01-01T00:00:00Z"),
  ("Nov 1, 2025 9:30 PM EST", "2025-11-02T02:30:00Z"),
  ("Nov 1, 2025 12:10 am", "2025-11-01T00:10:00Z"),
  ("Thu, 01-Jan-2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
  ("Thu, 01 Jan 2004 19:48:21 GMT trailing words", "2004-01-01T19:48:21Z"),
  ("Thu, 01 Jan 2004 19:48:21.123 GMT", "2004-01-01T19:48:21Z"),
  ("Thu, 01 Jan 2004 19:48:21+0100", "2004-01-01T18:48:21Z"),
  // JavaScript's Date.prototype.toString, which some generators print.
  ("Sat Nov 01 2025 09:30:00 GMT+0900 (Japan Standard Time)", "2025-11-01T00:30:00Z"),
  // asctime (feedparser's _parse_date_asctime).
  ("Sun Jan  4 16:29:06 PST 2004", "2004-01-05T00:29:06Z"),
  ("Sun Jan  4 16:29:06 2004", "2004-01-04T16:29:06Z"),
  // Perforce (feedparser's _parse_date_perforce).
  ("Fri, 2006/09/15 08:19:53 EDT", "2006-09-15T12:19:53Z"),
  ("2003-1-5", "2003-01-05T00:00:00Z"),
  ("Mon, 2003-12-01 10:00:00 +0100", "2003-12-01T09:00:00Z"),
  // RFC 3339 / W3C-DTF / ISO 8601.
  ("2003-12-31T10:14:55Z", "2003-12-31T10:14:55Z"),
  ("2003-12-31t10:14:55z", "2003-12-31T10:14:55Z"),
  ("2025-11-01T09:30:00+09:00", "2025-11-01T00:30:00Z"),
  ("2025-11-01T09:30:00+0900", "2025-11-01T00:30:00Z"),
  ("2025-11-01T09:30:00+09", "2025-11-01T00:30:00Z"),
  ("2025-11-01T09:30:00 +09:00", "2025-11-01T00:30:00Z"),
  ("2003-12-31T10:14:55-08:00", "2003-12-31T18:14:55Z"),
  ("2003-12-31T10:14:55.123456Z", "2003-12-31T10:14:55Z"),
  ("2003-12-31T10:14:55,5+01:00", "2003-12-31T09:14:55Z"),
  ("2003-12-31T10:14Z", "2003-12-31T10:14:00Z"),
  ("2002-10-13T09:00+01:00", "2002-10-13T08:00:00Z"),
  ("2003-12-31 10:14:55", "2003-12-31T10:14:55Z"),
  ("2003-12-31 10:14:55 UTC", "2003-12-31T10:14:55Z"),
  ("2003-12-31T10:14:55", "2003-12-31T10:14:55Z"),
  ("2003-12-13", "2003-12-13T00:00:00Z"),
  ("2003-12", "2003-12-01T00:00:00Z"),
  ("2003", "2003-01-01T00:00:00Z"),
  ("20031213T183000Z", "2003-12-13T18:30:00Z"),
  ("20031213T1830", "2003-12-13T18:30:00Z"),
  ("20031213", "2003-12-13T00:00:00Z"),
  ("2003-365", "2003-12-31T00:00:00Z"),
  ("2004-366T12:00Z", "2004-12-31T12:00:00Z"),
  ("2003-12-31T24:00:00Z", "2004-01-01T00:00:00Z"),
  ("2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z"),
  // Google's extra zero in the month, and MSSQL's space before a minutes-only offset.
  ("2003-012-31T10:14:55+00:00", "2003-12-31T10:14:55Z"),
  ("2004-07-08 23:56:58 -00:20", "2004-07-09T00:16:58Z"),
  ("2004-07-08 23:56:58.0", "2004-07-08T23:56:58Z"),
  // More of feedparser's forms: an extra comma, an offset in asctime, MET/MEST, an ancient year.
  ("Mon, 13 Feb, 2012 06:28:00 UTC", "2012-02-13T06:28:00Z"),
  ("Sun Jul 15 01:16:00 +0000 2012", "2012-07-15T01:16:00Z"),
  ("Thu Aug 30 2012 17:26:16 +0200", "2012-08-30T15:26:16Z"),
  ("Thu, 30 Apr 2015 08:57:00 MET", "2015-04-30T07:57:00Z"),
  ("Thu, 30 Apr 2015 08:57:00 MEST", "2015-04-30T06:57:00Z"),
  ("Wed, 19 Feb 2012 22:40:00 GMT-01:01", "2012-02-19T23:41:00Z"),
  ("Mon, 26 January 2004 16:31:00 PT", "2004-01-27T00:31:00Z"),
  ("Thu, 01 Jan 0100 00:00:01 +0100", "0099-12-31T23:00:01Z"),
  // Localized forms feedparser reads: Greek, Hungarian, Korean (OnBlog and Nate, in KST).
  ("Κυρ, 11 Ιούλ 2004 12:00:00 EST", "2004-07-11T17:00:00Z"),
  ("2004-július-13T9:15-05:00", "2004-07-13T14:15:00Z"),
  ("2004년 05월 28일  01:31:15", "2004-05-27T16:31:15Z"),
  ("2004-05-25 오후 11:23:17", "2004-05-25T14:23:17Z"),
  ("2004-05-25 오전 11:23:17", "2004-05-25T02:23:17Z"),
  // Leap days, dates before 1970, the last representable second.
  ("2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"),
  ("2000-02-29", "2000-02-29T00:00:00Z"),
  ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
  ("1900-01-01T00:00:00Z", "1900-01-01T00:00:00Z"),
  ("Tue, 01 Jan 1850 00:00:00 GMT", "1850-01-01T00:00:00Z"),
  ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
  ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
  ("Thu, 01 Jan 1970 09:00:00 +0900", "1970-01-01T00:00:00Z"),
]

/// Text that is no date, or a date with a field out of range: read as nil, never rolled over.
private let unreadableDates: [String] = [
  "", "   ", "not a date", "2003-13-01", "2003-02-29", "2003-02-30T00:00:00Z", "2004-02-30",
  "2003-00-10", "2003-12-00", "2003-12-32", "2003-04-31", "2003-367", "2003-366",
  "2003-12-31T25:00:00Z", "2003-12-31T10:60:00Z", "2003-12-31T10:14:61Z",
  "2003-12-31T10:14:55+25:00", "2003-12-31T10:14:55+09:70", "2003-12-31T", "2003-12-31T10",
  "2003-12-31X10:14:55", "0000-01-01",
  "Thu, 32 Jan 2004 19:48:21 GMT", "Thu, 29 Feb 2003 19:48:21 GMT", "Thu, 01 Foo 2004 19:48:21 GMT",
  "Thu, 01 Jan 2004 25:48:21 GMT", "Thu, 01 Jan 2004 19:48:21 +09:00:00", "Thu, 01 Jan",
  "Thu, 01 Jan 2004 19:48:21:07 GMT", "Thu, 01 Jan 2004 19 GMT", "01 Jan 12345 00:00:00 GMT",
  "Nov 1, 2025 13:30 PM", "2025-11-01T09:30:00+09:00 junk", "12/31/2003",
  // From feedparser's own list of dates it refuses.
  "Sun, 16 Dec 2012 1:2:3:4 GMT", "Sun, 16 zzz 2012 11:47:32 GMT", "Sun, Dec x 2012 11:47:32 GMT",
  "Sun, 16 Dec zz 11:47:32 GMT", "Sun, 16 Dec 2012 11:47:32 +zz:00",
  "Sun, 16 Dec 2012 11:47:32 +00:zz",
  "Sun, 99 Jun 2009 12:00:00 GMT", "9999-12-31T23:59:59-99:99", "22013", "013", "2013-01-27-01",
  "2013-01-28T11:30:00-06:00Textra", "2013-xx-27", "2013-01-28T09:xx:00Z",
  "2013-01-28T09:00:00+00:xx",
  "Sun, 31 Dec 9999 23:59:59 -9999", "9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00",
  "2004년 05월 28일", "2004-05-25 오후 13:23:17",
]

@Test("reads the date forms feeds write", arguments: readableDates)
func readsDate(text: String, expected: String) {
  let seconds = FeedDateParser.parse(text)
  #expect(seconds.map(FeedDateParser.rfc3339) == expected)
}

@Test("refuses text that is no valid date", arguments: unreadableDates)
func refusesDate(text: String) {
  #expect(FeedDateParser.parse(text) == nil)
}

@Test func formatsKnownInstants() {
  #expect(FeedDateParser.rfc3339(0) == "1970-01-01T00:00:00Z")
  #expect(FeedDateParser.rfc3339(1_318_988_115) == "2011-10-19T01:35:15Z")
  #expect(FeedDateParser.rfc3339(-1) == "1969-12-31T23:59:59Z")
  #expect(FeedDateParser.rfc3339(-86_400) == "1969-12-31T00:00:00Z")
  #expect(FeedDateParser.rfc3339(253_402_300_799) == "9999-12-31T23:59:59Z")
  #expect(FeedDateParser.rfc3339(-62_135_596_800) == "0001-01-01T00:00:00Z")
  // Out of RFC 3339's range: clamped, never a trap.
  #expect(FeedDateParser.rfc3339(.max) == "9999-12-31T23:59:59Z")
  #expect(FeedDateParser.rfc3339(.min) == "0001-01-01T00:00:00Z")
}

/// Formatting and reading are inverse over the whole range, with a fixed seed so a failure
/// reproduces.
@Test func rfc3339RoundTripsAcrossTheRange() {
  var generator = SplitMix64(seed: 0x5EED_DA7E)
  let first: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
  let last: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z
  for _ in 0..<20_000 {
    let seconds = first + Int64(generator.next() % UInt64(last - first + 1))
    let text = FeedDateParser.rfc3339(seconds)
    #expect(FeedDateParser.parse(text) == seconds, "\(text)")
  }
}

/// Random bytes drawn from the characters dates are made of never crash the parser.
@Test func survivesRandomDateLikeText() {
  var generator = SplitMix64(seed: 42)
  let alphabet = Array("0123456789:-+/.,TZ tzJanFebGMTjstSat()".utf8)
  for _ in 0..<20_000 {
    let length = Int(generator.next() % 40)
    let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
    _ = FeedDateParser.parse(String(decoding: bytes, as: UTF8.self))
  }
}

/// A small seeded generator (SplitMix64) so randomized tests reproduce.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
