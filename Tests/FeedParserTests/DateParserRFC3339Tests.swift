import Testing

@testable import FeedParser

/// `rfc3339` equals a plain reference formatter across the whole range and at its ends.
@Test func rfc3339MatchesAReferenceFormatter() {
  var generator = SplitMix64(seed: 0xF0_DA7E)
  let first = FeedDateParser.firstRFC3339Second
  let last = FeedDateParser.lastRFC3339Second
  var instants: [Int64] = [first, first + 1, -86_401, -86_400, -1, 0, 1, 86_399, 86_400, last]
  for _ in 0..<20_000 {
    instants.append(first + Int64(generator.next() % UInt64(last - first + 1)))
  }
  for seconds in instants {
    #expect(FeedDateParser.rfc3339(seconds) == referenceRFC3339(seconds), "\(seconds)")
  }
}

private func referenceRFC3339(_ seconds: Int64) -> String {
  let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
  let secondOfDay = seconds - days * 86_400
  let date = CivilTime.date(days: days)
  return "\(String(date.year).leftPadded(to: 4))-\(String(date.month).leftPadded(to: 2))-"
    + "\(String(date.day).leftPadded(to: 2))T\(String(secondOfDay / 3600).leftPadded(to: 2)):"
    + "\(String(secondOfDay / 60 % 60).leftPadded(to: 2)):"
    + "\(String(secondOfDay % 60).leftPadded(to: 2))Z"
}

/// `rfc3339Seconds` reads back every time `rfc3339` writes, with an offset or a fraction as
/// well, and nothing looser than an RFC 3339 date-time (what a state export's import accepts).
@Test func rfc3339SecondsReadsDateTimesAndNothingLooser() {
  var generator = SplitMix64(seed: 0x3339)
  for _ in 0..<5_000 {
    let seconds =
      FeedDateParser.firstRFC3339Second
      + Int64(
        generator.next()
          % UInt64(FeedDateParser.lastRFC3339Second - FeedDateParser.firstRFC3339Second))
    #expect(FeedDateParser.rfc3339Seconds(FeedDateParser.rfc3339(seconds)) == seconds)
  }
  let read: [(String, Int64)] = [
    ("2025-11-01T18:30:00Z", 1_762_021_800), ("2025-11-01t18:30:00z", 1_762_021_800),
    ("2025-11-01T18:30:00.999Z", 1_762_021_800), ("2025-11-02T03:30:00+09:00", 1_762_021_800),
    ("2025-11-01T13:30:00.5-05:00", 1_762_021_800),
  ]
  for (text, seconds) in read { #expect(FeedDateParser.rfc3339Seconds(text) == seconds, "\(text)") }
  let refused = [
    "2025-11-01", "2025-11-01T18:30Z", "2025-11-01 18:30:00Z", "2025-11-01T18:30:00",
    "2025-11-01T18:30:00+0900", "2025-11-01T18:30:00.Z", "2025-13-01T18:30:00Z",
    "2025-02-30T18:30:00Z", "Sat, 01 Nov 2025 18:30:00 GMT", " 2025-11-01T18:30:00Z",
    "2025-11-01T18:30:00Z ", "2025-11-01T18:30:00+09:00x", "soon", "",
  ]
  for text in refused { #expect(FeedDateParser.rfc3339Seconds(text) == nil, "\(text)") }
}
