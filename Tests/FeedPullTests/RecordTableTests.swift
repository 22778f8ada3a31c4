import Foundation
import TestSupport
import Testing

@testable import FeedPull

/// The record tables (`ItemFields`, `ChannelFields` and the objects' tables) are the one
/// declaration of the output's fields: each row is a `Field`, numbered by its place, and
/// docs/format.md names every row, in the order the writer writes them.
@Suite struct RecordTableTests {
  /// Every table of the output, with the docs' name for its object.
  static let tables: [(name: String, schema: any RecordSchema.Type)] = [
    ("feed", ChannelFields.self), ("item", ItemFields.self), ("person", PersonFields.self),
    ("link", LinkFields.self), ("enclosure", EnclosureFields.self), ("tag", TagFields.self),
    ("origin", OriginFields.self), ("in_reply_to", ReplyFields.self),
    ("youtube", YouTubeFields.self), ("schedule", ScheduleFields.self),
    ("chapters", ChaptersFields.self), ("chapters list", ChaptersFields.Chapter.self),
    ("itunes", ITunesFields.self), ("podcast", PodcastFields.self),
    ("media", MediaFields.self),
  ]

  /// A table's rows are its stored properties, all `Field`s, numbered by their offsets: what
  /// a key path's row number (`RecordSchema.row`) and the writer's order rely on.
  @Test(arguments: tables.map(\.schema))
  func everyStoredPropertyIsARowInItsPlace(_ schema: any RecordSchema.Type) {
    func check<Schema: RecordSchema>(_ type: Schema.Type) {
      let properties = Mirror(reflecting: Schema()).children.map { $0.value }
      #expect(properties.count == Schema.fieldCount, "\(Schema.self)")
      let rows = RecordTable.fieldRows(Schema.self)
      for (index, property) in properties.enumerated() {
        // The row read from memory is the property's own.
        let row = Mirror(reflecting: property).children.first?.value as? FieldRow
        #expect(row?.key.description == rows[index].key.description, "\(Schema.self) \(index)")
      }
      let keys = rows.map { $0.key.description }
      #expect(Set(keys).count == keys.count, "\(Schema.self): a key given twice")
    }
    check(schema)
  }

  @Test func keyPathsNameTheirRows() {
    #expect(ItemFields.row(\.id) == 0)
    #expect(ItemFields.row(\.language) == ItemFields.fieldCount - 1)
    #expect(RecordTable.of(ItemFields.self).rows[ItemFields.row(\.enclosures)].key == "enclosures")
    #expect(
      RecordTable.of(ITunesFields.self).rows[ITunesFields.row(\.newFeedURL)].key == "new_feed_url")
  }

  /// docs/format.md's `feed` and `item` tables list the rows of `ChannelFields` and
  /// `ItemFields`, in their order, after the fields the record adds itself.
  @Test(
    arguments: [("feed", ChannelFields.self), ("item", ItemFields.self)]
      as [(String, any RecordSchema.Type)])
  func theFormatTablesListTheRowsInOrder(_ record: String, _ schema: any RecordSchema.Type) throws {
    let documented = try Self.documentedFields(ofRecord: record)
    let addedByTheRecord: Set = ["type", "source", "url", "version", "index", "status"]
    let rows = RecordTable.of(schema).rows.map(\.key)
    #expect(documented.filter { !addedByTheRecord.contains($0) } == rows)
  }

  /// The docs' section on each namespaced object names every row of its table (and of the
  /// tables of its objects).
  @Test func theNamespacedObjectsNameEveryRow() throws {
    let text = try Self.format()
    for (object, schema) in [
      ("itunes", ITunesFields.self), ("podcast", PodcastFields.self), ("media", MediaFields.self),
      ("chapters", ChaptersFields.self), ("youtube", YouTubeFields.self),
    ] as [(String, any RecordSchema.Type)] {
      let start = try #require(text.range(of: "**`\(object)`**"), "no section for \(object)")
      let end = text.range(of: "\n\n", range: start.upperBound..<text.endIndex)?.lowerBound
      let section = text[start.upperBound..<(end ?? text.endIndex)]
      for key in Self.keys(of: RecordTable.of(schema)) {
        #expect(section.contains("`\(key)`"), "\(object): docs/format.md does not name `\(key)`")
      }
    }
  }

  private static func keys(of table: RecordTable) -> [String] {
    table.rows.flatMap { [$0.key] + ($0.table.map(keys) ?? []) }
  }

  private static func format() throws -> String {
    try String(
      contentsOf: RepositoryPaths.root.appendingPathComponent("docs/format.md"), encoding: .utf8)
  }

  /// The backticked names in the first column of the `### \`record\`` table, in order.
  private static func documentedFields(ofRecord record: String) throws -> [String] {
    let text = try format()
    let heading = try #require(text.range(of: "### `\(record)`\n"))
    var fields: [String] = []
    var inTable = false
    for line in text[heading.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
    {
      if line.hasPrefix("| field") || line.hasPrefix("| ---") {
        inTable = true
        continue
      }
      guard line.hasPrefix("|") else {
        if inTable { break }
        continue
      }
      let cell = line.dropFirst().prefix { $0 != "|" }
      for part in cell.split(separator: "`").enumerated() where part.offset % 2 == 1 {
        fields.append(String(part.element))
      }
    }
    return fields
  }
}
