/// The item being read: where its values go (a storage the builder reuses item after item,
/// while nobody else holds the last item) and what decides its fields at its end.
struct ItemDraft {
  /// 0-based position among the document's items.
  let index: Int
  var storage: RecordStorage
  let depth: Int
  /// RSS `guid isPermaLink="false"` makes it false: such a guid never stands in for the link.
  var guidIsPermalink = true

  /// The item's own block.
  var item: Block<ItemFields> { .root }
  /// The builder's rows for the item, past its table (`DraftFields`).
  var draft: Block<DraftFields> { Block(ItemFields.fieldCount) }
}

/// Values the builder keeps while a record is read but does not write: a block of these rows
/// follows the record's own block in its storage (so a value is copied into the record, when
/// it is, without leaving the storage), and the writers, equality and embedders never see it.
struct DraftFields: RecordSchema {
  /// The item's last RSS `guid`, which stands in for a missing link.
  let guid = Field<String>("guid")
  /// `itunes:author` as a person, which becomes the author when the record names no other.
  let iTunesAuthor = Field<FeedPerson>("itunes_author")
  /// The Atom `author` or `contributor` being read.
  let person = Field<FeedPerson>("person")
  /// A value on its way to its fields (a link's resolved `href`, an enclosure's URL), stored
  /// and resolved once, then shared by every field that takes it.
  let scratch = Field<String>("scratch")

  init() {}
}

/// An Atom `author` or `contributor` (name, email, uri children) or an RSS `author`
/// ("email (Name)" text), read into the draft rows of the record it belongs to.
struct PersonDraft {
  let depth: Int
  let isContributor: Bool
  /// The item's storage, or the channel's.
  let storage: RecordStorage
  let isItem: Bool
  /// Its block among the record's draft rows.
  let person: Block<PersonFields>
}
