import FeedParser
import Testing

@testable import FeedPull

/// The extension section's fields as JSON: keys that are data (namespace URIs, attribute names)
/// are escaped like values, numbers keep their fractions, and the out-of-line fields of a record
/// are copied on write, never shared between two records.
@Suite struct NamespaceEncodingTests {
  @Test func extensionKeysAreEscapedAndTruncationIsSaid() {
    var item = FeedItem(index: 0)
    var element = FeedExtensions.Element(value: "v")
    element.attributes = [(name: "a\"b", value: "c\nd")]
    item.extensions.append(element, namespace: "urn:x\"y", name: "n\\m")
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
    var chapters = PodloveChapters(version: "1.2")
    chapters.list = [.init(start: 187.25, title: "Two")]
    item.chapters = chapters
    let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s", item: item)))
    #expect(line.contains(#""geo":{"type":"Polygon","coordinates":[[[1.5,2],[3,4.25],[1.5,2]]]}"#))
    #expect(line.contains(#""chapters":{"version":"1.2","list":[{"start":187.25,"title":"Two"}]}"#))
  }

  /// The writer reads the iTunes and podcast objects in place through their optionals
  /// (`JSONLinesEncoding.inPlace`), which writes nothing only while an optional of them keeps
  /// no tag byte of its own; and what it writes is what the objects hold.
  @Test func namespacedObjectsAreReadInPlace() {
    #expect(MemoryLayout<ITunesInfo?>.size == MemoryLayout<ITunesInfo>.size)
    #expect(MemoryLayout<PodcastInfo?>.size == MemoryLayout<PodcastInfo>.size)
    var item = FeedItem(index: 0)
    var itunes = ITunesInfo()
    itunes.author = "A"
    itunes.duration = 61
    item.itunes = itunes
    var podcast = PodcastInfo()
    podcast.persons = [.init(name: "P", role: "host")]
    item.podcast = podcast
    let shared = item
    let line = JSONLinesEncoding.line(.item(ItemRecord(source: "s", item: item)))
    #expect(line.contains(#""itunes":{"author":"A","duration":61}"#))
    #expect(line.contains(#""podcast":{"persons":[{"name":"P","role":"host"}]}"#))
    #expect(shared == item, "the record read in place is unchanged")
  }

  @Test func outOfLineFieldsAreCopiedOnWrite() {
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
    #expect(item.extensionFields.isBlank)
  }
}
