/// A record is complete: the channel before the first item (or at the document's end), an item
/// at its end tag, an author or contributor at its end tag. Fallbacks that depend on the whole
/// record (an item's link from its guid, iTunes' author, the namespaces' fallbacks) apply here,
/// so that the order of elements in the feed does not matter.
extension FeedDocumentBuilder {
  func sendChannel() {
    channelSent = true
    if channel.authors.isEmpty, let fallback = channelITunesAuthor {
      channel.authors.append(fallback)
    }
    NamespaceFallbacks.complete(&channel)
    emit(.channel(channel))
  }

  func finishItem() {
    guard var draft = item.take() else { return }
    if draft.item.link == nil, let guid = draft.guid, draft.guidIsPermalink,
      Self.looksLikeURL(guid)
    {
      draft.item.link = guid
    }
    if draft.item.authors.isEmpty, let fallback = draft.iTunesAuthor {
      draft.item.authors.append(fallback)
    }
    draft.finish()
    if isEntryDocument, !channelSent, let origin = draft.item.origin {
      // What the entry's `source` says of the feed it came from is all there is of one.
      channel.title = origin.title
      channel.titleType = origin.title == nil ? nil : "text/plain"
      channel.link = origin.url
    }
    if !channelSent { sendChannel() }
    itemCount += 1
    emit(.item(draft.item))
  }

  /// An absolute http(s) URL: what a guid must be to stand in for a missing link.
  private static func looksLikeURL(_ text: String) -> Bool {
    let lowered = text.lowercased()
    return (lowered.hasPrefix("http://") || lowered.hasPrefix("https://"))
      && !text.contains(" ")
  }

  func finishPerson() {
    guard var draft = person.take() else { return }
    if draft.person.name == nil && draft.person.email == nil && draft.person.uri == nil {
      let text = String(decoding: draft.text, as: UTF8.self)
      guard let parsed = PersonTextParser.person(from: text) else { return }
      draft.person = parsed
    }
    if draft.isContributor {
      addContributor(draft.person)
    } else {
      addAuthor(draft.person)
    }
  }
}
