/// A record is complete: the channel before the first item (or at the document's end), an item
/// at its end tag, an author or contributor at its end tag. Fallbacks that depend on the whole
/// record (an item's link from its guid, iTunes' author, the namespaces' fallbacks) apply here,
/// so that the order of elements in the feed does not matter.
extension FeedDocumentBuilder {
  func sendChannel() {
    channelSent = true
    do {
      let storage = channel.storage
      let root = Block<ChannelFields>.root
      if storage.count(root, \.authors) == 0, storage.has(channelDraft, \.iTunesAuthor) {
        storage.copyValue(
          from: storage, at: channelDraft.slot(\.iTunesAuthor),
          to: storage.appendEntry(toListAt: root.slot(\.authors)))
      }
      NamespaceFallbacks.complete(channelIn: storage)
    }
    emit(.channel(channel))
    // Channel elements after the first item still go to the channel (and no longer out): a
    // copy of its own, when whoever received the channel kept it.
    if !isKnownUniquelyReferenced(&channel.storage) { channel.storage = channel.storage.copy() }
    if item == nil { openStorage = channel.storage }
  }

  func finishItem() {
    guard var draft = item.take() else { return }
    openStorage = channel.storage
    complete(draft)
    if isEntryDocument, !channelSent,
      let origin = draft.storage.existing(Block<ItemFields>.root, \.origin)
    {
      // What the entry's `source` says of the feed it came from is all there is of one.
      let channel = Block<ChannelFields>.root
      openStorage.clear(channel, \.title)
      openStorage.clear(channel, \.titleType)
      if let title = draft.storage.text(origin, \.title) {
        openStorage.setText(channel, \.title, title)
        openStorage.setType(channel, \.titleType, .plain)
      }
      openStorage.clear(channel, \.link)
      if let url = draft.storage.text(origin, \.url) { openStorage.setText(channel, \.link, url) }
    }
    if !channelSent { sendChannel() }
    itemCount += 1
    emit(.item(FeedItem(index: draft.index, storage: draft.storage)))
    // The storage is used again for the next item when the item was let go (the JSON Lines
    // writer copies what it writes); whoever kept it keeps it, and the next item gets a new one.
    if isKnownUniquelyReferenced(&draft.storage) { spareItemStorage = draft.storage }
  }

  /// The item's fallbacks: a guid as its link, iTunes' author as its author, the namespaces'.
  private func complete(_ draft: borrowing ItemDraft) {
    let root = Block<ItemFields>.root
    let storage = draft.storage
    if !storage.has(root, \.link), draft.guidIsPermalink,
      let guid = storage.text(draft.draft, \.guid), Self.looksLikeURL(guid)
    {
      storage.copy(draft.draft, \.guid, to: root, \.link)
    }
    if storage.count(root, \.authors) == 0, storage.has(draft.draft, \.iTunesAuthor) {
      storage.copyValue(
        from: storage, at: draft.draft.slot(\.iTunesAuthor),
        to: storage.appendEntry(toListAt: root.slot(\.authors)))
    }
    NamespaceFallbacks.complete(itemIn: storage)
  }

  /// An absolute http(s) URL: what a guid must be to stand in for a missing link.
  private static func looksLikeURL(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !text.contains(UInt8(ascii: " ")) else { return false }
    func startsWith(_ prefix: StaticString) -> Bool {
      guard text.count >= prefix.utf8CodeUnitCount else { return false }
      for index in 0..<prefix.utf8CodeUnitCount {
        let byte = text[index]
        let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        if lowered != prefix.utf8Start[index] { return false }
      }
      return true
    }
    return startsWith("http://") || startsWith("https://")
  }

  func finishPerson() {
    guard let draft = person.take() else { return }
    let storage = draft.storage
    let person = draft.person
    let slot = (draft.isItem ? item!.draft : channelDraft).slot(\.person)
    if !storage.has(person, \.name) && !storage.has(person, \.email)
      && !storage.has(person, \.uri)
    {
      let parsed = personText.withUnsafeBufferPointer { text in
        storePerson(fromText: text.trimmedOfXMLSpace, in: storage, at: slot)
      }
      guard parsed else { return }
    }
    let list = personListSlot(contributor: draft.isContributor, isItem: draft.isItem)
    storage.copyValue(from: storage, at: slot, to: storage.appendEntry(toListAt: list))
  }
}
