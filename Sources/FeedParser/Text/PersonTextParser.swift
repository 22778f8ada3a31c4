/// Splits RSS's person text (`author`, `managingEditor`, `dc:creator`) into a name and an email
/// address. RSS 2.0 asks for "email (Name)" (`joe@example.com (Joe Bloggs)`); feeds also write
/// "Name <email>" or either part alone. Like feedparser: the address is the run of address
/// characters around the first `@`, the name is what remains without brackets.
enum PersonTextParser {
  static func person(from text: String) -> FeedPerson? {
    // Most feeds give a name alone: no scalar array for those.
    guard text.utf8.contains(UInt8(ascii: "@")) else { return nameOnly(text) }
    let scalars = Array(text.unicodeScalars)
    guard let at = scalars.firstIndex(of: "@") else { return nameOnly(text) }
    var start = at
    while start > 0, isLocalPart(scalars[start - 1]) { start -= 1 }
    var end = at + 1
    while end < scalars.count, isDomainPart(scalars[end]) { end += 1 }
    while end > at + 1, scalars[end - 1] == "." { end -= 1 }
    guard start < at, end > at + 1 else { return nameOnly(text) }
    var email = String(String.UnicodeScalarView(scalars[start..<end]))
    if email.lowercased().hasPrefix("mailto:") { email = String(email.dropFirst(7)) }
    var rest = String(String.UnicodeScalarView(scalars[..<start] + scalars[end...]))
    // `mailto:` first: `Name (mailto:x@y)` leaves `Name (mailto:)`, whose brackets are then
    // empty.
    for empty in ["mailto:", "MAILTO:", "()", "<>"] { rest = removingAll(empty, from: rest) }
    rest = rest.trimmingSpaces()
    if rest.hasPrefix("(") { rest.removeFirst() }
    if rest.hasSuffix(")") { rest.removeLast() }
    rest = rest.trimmingSpaces()
    return FeedPerson(name: rest.isEmpty ? nil : rest, email: email)
  }

  private static func nameOnly(_ text: String) -> FeedPerson? {
    let name = text.trimmingSpaces()
    return name.isEmpty ? nil : FeedPerson(name: name)
  }

  private static func removingAll(_ target: String, from text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      rest = rest[range.upperBound...]
    }
    return result + rest
  }

  private static func isLocalPart(_ scalar: Unicode.Scalar) -> Bool {
    isAlphanumeric(scalar) || scalar == "_" || scalar == "-" || scalar == "." || scalar == "+"
  }

  private static func isDomainPart(_ scalar: Unicode.Scalar) -> Bool {
    isAlphanumeric(scalar) || scalar == "-" || scalar == "."
  }

  private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
    (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
      || (scalar >= "0" && scalar <= "9")
  }
}
