import Testing

@testable import FeedParser

/// RSS 0.9x/2.0, RSS 1.0 and Atom 0.3/1.0 map to the output's fields (docs/format.md).
@Suite struct FormatTests {
  @Test(arguments: [
    ("rss/rss20-full.xml", FeedVersion.rss20), ("rss/rss091-netscape.xml", .rss091n),
    ("rss/rss091-userland.xml", .rss091u), ("rss/rss092.xml", .rss092),
    ("rss/rss-unknown-version.xml", .rss), ("rdf/rss10.xml", .rss10), ("rdf/rss090.xml", .rss090),
    ("atom/atom10-full.xml", .atom10), ("atom/atom03.xml", .atom03),
  ])
  func versionCodes(path: String, version: FeedVersion) throws {
    let outcome = try parseFixture(path)
    #expect(outcome.channel?.version == version)
    #expect(outcome.result.failure == nil)
    #expect(outcome.result.wellformed)
  }

  @Test func rss20Channel() throws {
    let channel = try #require(try parseFixture("rss/rss20-full.xml").channel)
    #expect(channel.title == "Example & Co")
    #expect(channel.titleType == "text/plain")
    #expect(channel.link == "http://example.com/")
    #expect(channel.selfLink == "http://example.com/feed.xml")
    #expect(channel.description == "An <b>example</b> channel")
    #expect(channel.language == "en-us")
    #expect(channel.rights == "Copyright 2024 Example")
    #expect(channel.generator == "Hand written")
    #expect(channel.updated == .instant(1_031_356_801))
    #expect(channel.published == .instant(1_031_270_401))
    #expect(channel.authors == [FeedPerson(name: "Ed Itor", email: "editor@example.com")])
    #expect(channel.categories == ["News"])
    #expect(channel.image?.hasSuffix("/logo.png") == true)
  }

  @Test func rss20Items() throws {
    let items = try parseFixture("rss/rss20-full.xml").items
    try #require(items.count == 3)
    let first = items[0]
    #expect(first.index == 0)
    #expect(first.id == "tag:example.com,2002:1")
    #expect(first.title == "First <item>")
    #expect(first.link == "http://example.com/1")
    #expect(
      first.links == [FeedLink(href: "http://example.com/1", rel: "alternate", type: "text/html")])
    #expect(first.summary == "<p>Summary <i>one</i></p>")
    #expect(first.summaryType == "text/html")
    #expect(first.content == "<p>Full content one</p>")
    #expect(first.contentType == "text/html")
    #expect(first.authors == [FeedPerson(name: "Joe Bloggs", email: "joe@example.com")])
    #expect(first.categories == ["a", "b"])
    #expect(first.comments?.hasSuffix("/comments/1") == true)
    #expect(first.enclosures.count == 2)
    #expect(
      first.enclosures.first
        == FeedEnclosure(url: "http://example.com/1.mp3", type: "audio/mpeg", length: 12345))
    #expect(first.enclosures.last?.type == nil)
    #expect(first.enclosures.last?.length == nil)
    #expect(first.published == .instant(1_031_356_801))
    // A guid that is a URL stands in for the missing link; isPermaLink="false" does not.
    #expect(items[1].link == "http://example.com/2")
    #expect(items[1].authors == [FeedPerson(name: "Jane Doe")])
    #expect(items[1].published == .instant(1_031_479_200))
    #expect(
      items[1].enclosures == [
        FeedEnclosure(url: "http://example.com/2.jpg", type: "image/jpeg", length: 999)
      ])
    #expect(items[2].link == nil)
    #expect(items[2].published == .raw("sometime last week"))
  }

  @Test func rss10() throws {
    let outcome = try parseFixture("rdf/rss10.xml")
    let channel = try #require(outcome.channel)
    #expect(channel.language == "fr")
    #expect(channel.updated == .instant(1_041_379_200))
    #expect(channel.image == "http://example.com/i.png")
    #expect(outcome.items.map(\.id) == ["http://example.com/a", "http://example.com/b"])
    #expect(outcome.items.first?.categories == ["subj"])
    #expect(outcome.items.first?.authors == [FeedPerson(name: "Anne")])
  }

  @Test func atom10() throws {
    let outcome = try parseFixture("atom/atom10-full.xml")
    let channel = try #require(outcome.channel)
    #expect(channel.id == "urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6")
    #expect(channel.title == "Example <b>Atom</b>")
    #expect(channel.titleType == "text/html")
    #expect(channel.link == "http://example.org/")
    #expect(channel.selfLink == "http://example.org/feed.atom")
    #expect(channel.description == "A subtitle")
    #expect(channel.language == "en-GB")
    #expect(channel.generator == "Example Toolkit")
    #expect(
      channel.authors == [
        FeedPerson(name: "John Doe", email: "johndoe@example.com", uri: "http://example.com/~john")
      ])
    #expect(channel.categories == ["tech"])
    let items = outcome.items
    try #require(items.count == 3)
    #expect(items[0].title == "Atom-Powered Robots Run Amok")
    #expect(items[0].link == "http://example.org/2003/12/13/atom03")
    #expect(items[0].links.map(\.rel) == ["alternate", "enclosure", "related"])
    #expect(items[0].links[2].title == "Related")
    #expect(
      items[0].enclosures == [
        FeedEnclosure(url: "http://example.org/audio.mp3", type: "audio/mpeg", length: 1337)
      ])
    #expect(items[0].published == .instant(1_071_318_569))
    #expect(items[0].summary == "Some text & more.")
    #expect(items[0].summaryType == "text/plain")
    #expect(items[0].content == "<p>Hello <b>world</b> &amp; <br />all</p>")
    #expect(items[0].contentType == "application/xhtml+xml")
    #expect(items[0].categories == ["robots"])
    #expect(items[1].title == "An <em>xhtml</em> title")
    #expect(items[1].content == "<p>escaped html</p>")
    #expect(items[1].authors.isEmpty)
    #expect(items[2].content == "Hello")
  }

  @Test func atom03() throws {
    let outcome = try parseFixture("atom/atom03.xml")
    let channel = try #require(outcome.channel)
    #expect(channel.description == "The tagline")
    #expect(channel.rights == "Copyright")
    #expect(channel.authors == [FeedPerson(name: "Mark", uri: "http://example.org/mark")])
    let items = outcome.items
    try #require(items.count == 2)
    #expect(items[0].content == "<div>Inline <b>xml</b></div>")
    #expect(items[0].published == .instant(1_071_318_569))
    #expect(items[1].summary == "<b>escaped</b>")
    #expect(items[1].content == "<b>base64</b>")
  }

  @Test func iTunesAuthorOnlyAsFallback() throws {
    let outcome = try parseFixture("rss/itunes.xml")
    #expect(outcome.channel?.image == "http://example.com/cover.jpg")
    #expect(outcome.channel?.authors == [FeedPerson(name: "Pod Caster")])
    #expect(
      outcome.items.map(\.authors) == [
        [FeedPerson(name: "Guest")], [FeedPerson(name: "Host", email: "host@example.com")],
      ])
  }

  @Test func oneFileNamedTwiceIsOneEnclosure() {
    let outcome = parse(
      """
      <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><item>
      <enclosure url="http://example.com/e.mp3" length="10"/>
      <media:content url="http://example.com/e.mp3" type="audio/mpeg" fileSize="99"/>
      <media:content url="http://example.com/e.jpg" type="image/jpeg"/>
      </item></channel></rss>
      """)
    #expect(
      outcome.items.first?.enclosures == [
        FeedEnclosure(url: "http://example.com/e.mp3", type: "audio/mpeg", length: 10),
        FeedEnclosure(url: "http://example.com/e.jpg", type: "image/jpeg"),
      ])
  }

  @Test func xmlBaseStack() throws {
    let outcome = try parseFixture("base/xml-base.xml")
    #expect(outcome.channel?.link == "http://example.com/root/index.html")
    #expect(outcome.channel?.image == "http://example.com/root/img/logo.png")
    #expect(
      outcome.items.map(\.link) == [
        "http://example.com/root/entries/one.html", "http://other.example.org/x/z?q=1#f",
        "http://example.com/abs",
      ])
    #expect(
      outcome.items.first?.enclosures.first?.url == "http://example.com/root/entries/media/a.mp3")
    #expect(outcome.items.first?.id == "e1")
  }

  @Test func documentURLIsTheLastBase() {
    let outcome = parse(
      "<rss version=\"2.0\"><channel><link>home.html</link><item><link>../a?b#c</link></item></channel></rss>",
      documentURL: "http://example.com/dir/feed.xml")
    #expect(outcome.channel?.link == "http://example.com/dir/home.html")
    #expect(outcome.items.first?.link == "http://example.com/a?b#c")
  }

  @Test(arguments: [
    ("http://a/b/c/d;p?q", "g", "http://a/b/c/g"),
    ("http://a/b/c/d;p?q", "./g/", "http://a/b/c/g/"),
    ("http://a/b/c/d;p?q", "//g", "http://g"), ("http://a/b/c/d;p?q", "?y", "http://a/b/c/d;p?y"),
    ("http://a/b/c/d;p?q", "#s", "http://a/b/c/d;p?q#s"),
    ("http://a/b/c/d;p?q", "../..", "http://a/"),
    ("http://a/b/c/d;p?q", "../../../g", "http://a/g"),
    ("http://a/b/c/d;p?q", "", "http://a/b/c/d;p?q"),
    ("http://a/b/c/d;p?q", "g;x=1/../y", "http://a/b/c/y"), ("http://a", "b", "http://a/b"),
    ("file:///tmp/feed.xml", "x.png", "file:///tmp/x.png"),
  ])
  func rfc3986Resolution(base: String, reference: String, expected: String) {
    #expect(URIResolver.resolve(reference, against: base) == expected)
    // The sanitizer's resolver on bytes gives the same.
    #expect(
      MarkupBase(base)?.resolve(ArraySlice(reference.utf8)).elementsEqual(expected.utf8) == true)
  }

  @Test func personText() {
    #expect(
      PersonTextParser.person(from: "joe@example.com (Joe Bloggs)")
        == FeedPerson(name: "Joe Bloggs", email: "joe@example.com"))
    #expect(
      PersonTextParser.person(from: "Joe Bloggs <joe@example.com>")
        == FeedPerson(name: "Joe Bloggs", email: "joe@example.com"))
    #expect(
      PersonTextParser.person(from: "joe@example.com") == FeedPerson(email: "joe@example.com"))
    #expect(PersonTextParser.person(from: "Joe") == FeedPerson(name: "Joe"))
    #expect(
      PersonTextParser.person(from: "Joe Bloggs (mailto:joe@example.com)")
        == FeedPerson(name: "Joe Bloggs", email: "joe@example.com"))
    #expect(
      PersonTextParser.person(from: "Joe Bloggs <mailto:joe@example.com>")
        == FeedPerson(name: "Joe Bloggs", email: "joe@example.com"))
  }
}
