/// Which of an item's keys identifies it, from most to least trusted: the feed's own id, the
/// item's link, or a hash of its title, date and content. A source moves down when more than
/// 5% of its items lack the key or share it with another item, or when its ids change on
/// every pull while its links stay.
public enum IdentityMode: String, Codable, Sendable, CaseIterable {
  /// By id (guid, Atom id, JSON Feed id); by link; by a hash of title, date and content.
  case id, link, hash
}
