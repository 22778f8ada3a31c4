import FeedPull
import Testing

@testable import Subscriptions

/// An item's keys and fingerprint are stored in state files: the values of every release must
/// stay the same, or an upgrade would deliver remembered items again as new (or as updated).
/// The values below were computed by the two-pass `ItemKeys` of commit 2ba2516.
@Suite struct ItemKeysTests {
  /// Text of `count` bytes, multi-byte characters included, so word and tail boundaries move.
  static func text(_ count: Int, salt: Int) -> String {
    let pieces = ["Tag quickly ", "東京の天気は晴れ", "<p>x</p> ", "é", "\u{0}", "ab"]
    var bytes: [UInt8] = []
    var index = salt
    while bytes.count < count {
      bytes.append(contentsOf: pieces[index % pieces.count].utf8)
      index += 1
    }
    return String(decoding: bytes.prefix(count), as: UTF8.self)
  }

  /// Item shapes that take each branch: content or summary as the body, neither, dates as
  /// instants, raw text or absent, enclosures, empty strings, bodies of many lengths.
  static var items: [FeedItem] {
    var items: [FeedItem] = []
    var full = FeedItem(index: 0)
    full.id = "https://blog1.example.com/posts/0"
    full.link = "https://blog1.example.com/posts/0"
    full.title = "パフォーマンスが大幅に改善されました: Cache morning build garden network #0"
    full.summary = text(700, salt: 1)
    full.content = text(4100, salt: 2)
    full.published = .instant(1_795_000_000)
    full.enclosures = [
      FeedEnclosure(url: "http://e/a.mp3", length: 42), FeedEnclosure(url: "http://e/b.ogg"),
    ]
    items.append(full)
    var summaryOnly = FeedItem(index: 1)
    summaryOnly.link = "https://example.com/1"
    summaryOnly.title = "Summary only"
    summaryOnly.summary = text(333, salt: 3)
    summaryOnly.updated = .raw("yesterday, around noon")
    items.append(summaryOnly)
    var bare = FeedItem(index: 2)
    bare.id = "urn:bare"
    items.append(bare)
    var empty = FeedItem(index: 3)
    empty.id = ""
    empty.link = ""
    empty.title = ""
    empty.summary = ""
    empty.content = ""
    items.append(empty)
    for length in [1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
      var item = FeedItem(index: 4 + length)
      item.title = "Length \(length)"
      item.content = text(length, salt: length)
      item.summary = length.isMultiple(of: 2) ? nil : text(length + 3, salt: 0)
      item.published = .instant(Int64(length))
      items.append(item)
    }
    return items
  }

  @Test func keysAreThoseEarlierReleasesStored() {
    let keys = Self.items.map(ItemKeys.init)
    let found = keys.map { [$0.id, $0.link, $0.content, $0.fingerprint] }
    #expect(found == Self.pinned)
  }

  static let pinned: [[Int64?]] = [
    [
      8_808_604_393_659_870_169, 8_808_604_393_659_870_169, -7_203_271_375_762_194_490,
      -5_274_554_480_069_518_903,
    ],
    [nil, -3_241_472_479_117_850_313, -5_574_304_347_693_935_989, 4_050_715_586_711_901_489],
    [-2_864_534_048_020_224_872, nil, 7_218_357_890_765_152_233, -142_663_356_234_811_514],
    [
      -7_370_510_900_886_217_073, -7_370_510_900_886_217_073, -549_080_045_095_939_424,
      4_487_065_313_448_700_934,
    ],
    [nil, nil, 3_115_675_365_963_209_490, -6_077_816_820_712_765_563],
    [nil, nil, 9_046_713_526_029_866_751, -8_928_497_940_520_684_836],
    [nil, nil, -8_848_976_453_551_587_624, 7_664_006_385_905_880_478],
    [nil, nil, 1_015_930_592_333_873_563, 5_019_844_115_521_711_831],
    [nil, nil, 2_972_156_507_815_293_947, 5_524_188_411_628_267_581],
    [nil, nil, -10_753_231_259_086_800, -930_231_471_164_631_675],
    [nil, nil, 6_668_322_431_382_735_700, 7_476_983_795_181_199_793],
    [nil, nil, -8_234_823_585_493_182_251, 3_068_865_283_736_925_818],
    [nil, nil, -7_554_766_832_789_253_466, 8_954_259_418_743_006_522],
    [nil, nil, -1_171_147_962_082_716_421, 8_138_799_161_924_232_074],
    [nil, nil, -177_593_846_041_079_742, -4_667_013_075_375_292_865],
  ]
}
