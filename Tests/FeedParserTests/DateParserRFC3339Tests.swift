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
