import Foundation
import Testing

@testable import FeedParser

/// What the namespace readers promise beyond the fixtures: the bound on extension text, and
/// the odd values of iTunes fields, read one at a time.
@Suite struct NamespaceTests {
  /// A 1 MB extension element is cut at the record's bound and says so; the item itself and
  /// the items after it are unharmed, and the next item has a bound of its own.
  @Test func megabyteExtensionIsCutAtTheBound() {
    let big = String(repeating: "é0123456789", count: 100_000)  // 1.2 MB, two-byte characters
    let feed = """
      <rss version="2.0" xmlns:x="http://example.com/x"><channel><title>T</title>
      <item><title>Big</title><x:blob kind="text">\(big)</x:blob><x:after>lost</x:after></item>
      <item><title>Next</title><x:small>kept</x:small></item>
      </channel></rss>
      """
    let outcome = parse(Array(feed.utf8), chunkSizes: Array(repeating: 65_536, count: 40))
    #expect(outcome.result.failure == nil)
    #expect(outcome.items.count == 2)
    let first = outcome.items[0]
    #expect(first.title == "Big")
    #expect(first.extensionsTruncated == true)
    let blob = first.extensions?.namespaces.first?.elements.first
    #expect(blob?.name == "blob")
    let value = blob?.values.first?.value ?? ""
    #expect(value.utf8.count <= ExtensionCapture.recordBound)
    #expect(value.utf8.count > ExtensionCapture.recordBound - 64)
    // Cut on a character boundary: no replacement character at the end.
    #expect(!value.hasSuffix("\u{FFFD}"))
    #expect(first.extensions?.namespaces.first?.elements.count == 1, "x:after is past the bound")
    let second = outcome.items[1]
    #expect(second.extensionsTruncated == nil)
    #expect(second.extensions?.namespaces.first?.elements.first?.values.first?.value == "kept")
  }

  @Test(
    arguments: [
      ("yes", true), ("Yes", true), (" TRUE ", true), ("explicit", true), ("no", false),
      ("clean", false), ("False", false), ("sometimes", nil), ("", nil),
    ] as [(String, Bool?)])
  func explicitValues(text: String, expected: Bool?) {
    let item = itunesItem("<itunes:explicit>\(text)</itunes:explicit>")
    #expect(item?.itunes?.explicit == expected)
  }

  @Test(
    arguments: [
      ("1:02:03", 3723), ("62:03", 3723), ("3723", 3723), ("1:2:3", 3723), ("00:00:59", 59),
      ("90.5", 90), ("1:02:03:04", nil), ("garbage", nil), ("1::3", nil), ("-5", nil),
      ("1:xx", nil),
    ] as [(String, Int?)])
  func durations(text: String, seconds: Int?) {
    let item = itunesItem("<itunes:duration>\(text)</itunes:duration>")
    #expect(item?.itunes?.duration == seconds)
    #expect(item?.itunes?.durationRaw == (seconds == nil ? text : nil))
  }

  /// The decimal fast path gives exactly what `Double(_:)` gives, and leaves to it what it
  /// does not read itself.
  @Test func plainDecimalsReadAsDoubleReadsThem() {
    var inputs = [
      "0", "-0", "7", "007", "1.5", "45.0", "64000", "0.1", "0.3", "-2.25", "1.", ".5",
      "123456789012345", "1234567890123456", "0.0000000000000000000001", "9007199254740993",
      "3.14159265358979", "1e5", "+1", "-", ".", "1.2.3", "12a", "",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let whole = UInt64.random(in: 0..<1_000_000, using: &generator)
      let fraction = UInt64.random(in: 0..<1_000_000_000, using: &generator)
      inputs.append("\(whole).\(fraction)")
    }
    for input in inputs {
      let expected = Double(input)
      if let fast = MediaReader.plainDecimal(input) {
        #expect(fast.bitPattern == expected?.bitPattern, "\(input)")
      }
      #expect(MediaReader.number(input)?.bitPattern == expected?.bitPattern, "\(input)")
    }
    #expect(MediaReader.plainDecimal("1.5") == 1.5)
    #expect(MediaReader.plainDecimal("1e5") == nil)
  }

  /// iTunes numbers and flags, read from the element's bytes (and through a `String` only
  /// for text the byte readers leave, such as `+5`), are what Swift's readers of the trimmed
  /// text make of them: `Int(_:)` for the integers, the documented words for the flags.
  @Test func iTunesNumbersAndFlagsReadAsTheirTextSays() {
    let texts = [
      "1:02:03", "62:03", "3723", "1:2:3", "3723.5", "1:02:03:04", "garbage", "12a", "-5", "+5",
      "007", "0", "yes", "No", "TRUE", "false", "clean", "Explicit", "maybe", "y",
      "123456789012345678", "1234567890123456789", "٣", " 42 ",
    ]
    for text in texts {
      let trimmed = text.trimmingSpaces()
      for (name, field) in [
        ("episode", \ITunesFields.episode), ("season", \.season), ("order", \.order),
      ] as [(String, KeyPath<ITunesFields, Field<Int>>)] {
        let itunes = itunesItem("<itunes:\(name)>\(text)</itunes:\(name)>")?.itunes
        #expect(itunes?[dynamicMember: field] == Int(trimmed), "\(name) \(text)")
      }
      let flags = itunesItem(
        "<itunes:explicit>\(text)</itunes:explicit><itunes:block>\(text)</itunes:block>")?.itunes
      let word = trimmed.lowercased()
      let yesNo: Bool? = word == "yes" ? true : word == "no" ? false : nil
      let explicit =
        yesNo
        ?? (["true", "explicit"].contains(word)
          ? true
          : ["false", "clean"].contains(word) ? false : nil)
      #expect(flags?.block == yesNo, "block \(text)")
      #expect(flags?.explicit == explicit, "explicit \(text)")
    }
    let integers = ["0", "-0", "42", "-42", "007", "+1", "", "-", "1.0", "999999999999999999"]
    for text in integers {
      if let fast = Array(text.utf8).withUnsafeBufferPointer({ NamespacedNumber.integer($0) }) {
        #expect(fast == Int(text), "\(text)")
      }
    }
  }

  @Test func blockCompleteAndClosedCaptionedSayOnlyYesOrNo() {
    let item = itunesItem(
      "<itunes:block>true</itunes:block><itunes:isClosedCaptioned>NO</itunes:isClosedCaptioned>")
    #expect(item?.itunes?.block == nil)
    #expect(item?.itunes?.closedCaptioned == false)
  }

  @Test func mediaFallbacksNeverOverrideCoreFields() {
    let outcome = parse(
      """
      <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
      <item><media:title>M</media:title><media:description>D</media:description></item>
      <item><title>T</title><description>S</description><media:title>M</media:title></item>
      </channel></rss>
      """)
    #expect(outcome.items.map(\.title) == ["M", "T"])
    #expect(outcome.items.map(\.summary) == ["D", "S"])
  }

  /// Attribute values are trimmed on their bytes before they become strings: white space at
  /// either end goes, a value of only white space is no value, `&amp;` is decoded, and an
  /// entity that stands for white space is trimmed after it is expanded.
  @Test func attributeValuesAreTrimmedAndDecodedOnce() {
    let feed = """
      <!DOCTYPE rss [<!ENTITY sp " "><!ENTITY kind "text/vtt">]>
      <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>
      <item><title>T</title>
      <podcast:transcript url="  https://a.example/t?a=1&amp;b=2
      " type="&kind;" language="&sp;en&sp;" rel="   "/>
      <podcast:person img="" href=" https://a.example/p ">Alice</podcast:person>
      </item></channel></rss>
      """
    let podcast = parse(feed).items.first?.podcast
    let transcript = podcast?.transcripts.first
    #expect(transcript?.url == "https://a.example/t?a=1&b=2")
    #expect(transcript?.type == "text/vtt")
    #expect(transcript?.language == "en")
    #expect(transcript?.rel == nil)
    #expect(podcast?.persons.first?.img == nil)
    #expect(podcast?.persons.first?.href == "https://a.example/p")
    #expect(podcast?.persons.first?.name == "Alice")
  }

  /// Keywords split on their bytes: trimmed, empty ones dropped, duplicates kept once.
  @Test func keywordListsSplitOnCommas() {
    let item = itunesItem("<itunes:keywords> a , ,b,a,c ,</itunes:keywords>")
    #expect(item?.itunes?.keywords == ["a", "b", "c"])
  }

  /// Tags and keywords are kept once by their exact text, as feedparser keeps them (Python
  /// compares strings code point by code point): the same word in two Unicode forms (é as one
  /// code point, and as e with a combining accent, which Swift's `==` takes for equal) is two
  /// tags and two keywords; the same text twice is one. Also past the length at which the
  /// lists are looked up in a set.
  @Test func tagsAndKeywordsAreKeptOnceByTheirExactText() {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(composed == decomposed, "Swift's == takes the two for equal")
    let item = itunesItem(
      """
      <category domain="d">\(composed)</category><category domain="d">\(decomposed)</category>
      <category domain="d">\(composed)</category><category domain="d">技術</category>
      <category domain="d">技術</category>
      <itunes:keywords>\(composed),\(decomposed),\(composed),日記,日記</itunes:keywords>
      """)
    let terms = item?.tags.filter { $0.scheme == "d" }.map { $0.term?.unicodeScalars.count }
    #expect(terms == [4, 5, 2], "café, cafe + accent, 技術: each once")
    #expect(item?.itunes?.keywords.map(\.unicodeScalars.count) == [4, 5, 2])
    let many =
      (0..<40).map { "<category domain=\"d\">t\($0 % 20)\(composed)</category>" }
      .joined() + "<category domain=\"d\">t0\(decomposed)</category>"
    let long = itunesItem(many)
    #expect(long?.tags.count == 21, "twenty terms once each, and the decomposed one")
    #expect(long?.tags.last?.term?.unicodeScalars.count == 7, "t0, cafe, the accent")
  }

  private func itunesItem(_ elements: String) -> FeedItem? {
    parse(
      """
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
      <item><title>T</title>\(elements)</item></channel></rss>
      """
    ).items.first
  }
}
