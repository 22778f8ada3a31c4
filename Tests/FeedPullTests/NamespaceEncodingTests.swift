import FeedParser
import Testing

@testable import FeedPull

/// The namespaced fields as JSON: keys that are data (namespace URIs, attribute names) are
/// escaped like values, numbers keep their fractions, and a record's storage is copied on
/// write, never changed under another record that shares it.
@Suite struct NamespaceEncodingTests {
  @Test func extensionKeysAreEscapedAndTruncationIsSaid() {
    var item = FeedItem(index: 0)
    var element = FeedExtensions.Element(value: "v")
    element.attributes = [(name: "a\"b", value: "c\nd")]
    var extensions = FeedExtensions()
    extensions.append(element, namespace: "urn:x\"y", name: "n\\m")
    item.extensions = extensions
    item.extensionsTruncated = true
    let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s", item: item)))
    #expect(
      line
        == #"{"type":"item","source":"s","index":0,"extensions":{"urn:x\"y":{"n\\m":[{"value":"v","attrs":{"a\"b":"c\nd"}}]}},"extensions_truncated":true}"#
    )
  }

  @Test func numbersKeepFractionsAndGeometriesNestAsGeoJSON() {
    var item = FeedItem(index: 0)
    item.geo = GeoGeometry(kind: .polygon, positions: [[1.5, 2], [3, 4.25], [1.5, 2]])
    var chapters = PodloveChapters()
    chapters.version = "1.2"
    var chapter = PodloveChapters.Chapter()
    chapter.start = 187.25
    chapter.title = "Two"
    chapters.list = [chapter]
    item.chapters = chapters
    let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s", item: item)))
    #expect(line.contains(#""geo":{"type":"Polygon","coordinates":[[[1.5,2],[3,4.25],[1.5,2]]]}"#))
    #expect(line.contains(#""chapters":{"version":"1.2","list":[{"start":187.25,"title":"Two"}]}"#))
  }

  /// The writer reads the namespaced objects where they lie in the record's storage; what it
  /// writes is what the objects hold, and writing changes nothing.
  @Test func namespacedObjectsAreWrittenFromTheStorage() {
    var item = FeedItem(index: 0)
    var itunes = ITunesInfo()
    itunes.author = "A"
    itunes.duration = 61
    item.itunes = itunes
    var podcast = PodcastInfo()
    var person = PodcastInfo.Person()
    person.name = "P"
    person.role = "host"
    podcast.persons = [person]
    item.podcast = podcast
    let shared = item
    let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s", item: item)))
    #expect(line.contains(#""itunes":{"author":"A","duration":61}"#))
    #expect(line.contains(#""podcast":{"persons":[{"name":"P","role":"host"}]}"#))
    #expect(shared == item, "the record read in place is unchanged")
  }

  @Test func recordsAreCopiedOnWrite() {
    var original = FeedItem(index: 0)
    var itunes = ITunesInfo()
    itunes.duration = 60
    original.itunes = itunes
    var copy = original
    copy.itunes!.duration = 120
    copy.tags.append(FeedTag(term: "t", scheme: "s"))
    #expect(original.itunes?.duration == 60)
    #expect(original.tags.isEmpty)
    #expect(copy.itunes?.duration == 120)
    #expect(original != copy)
    copy.itunes!.duration = 60
    copy.tags = []
    #expect(original == copy)
  }

  @Test func aRecordWithoutExtensionFieldsWritesNoneOfThem() {
    var item = FeedItem(index: 0)
    item.image = "http://e/i.png"
    let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s", item: item)))
    #expect(line == #"{"type":"item","source":"s","index":0,"image":"http://e/i.png"}"#)
  }
}
