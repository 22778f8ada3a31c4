/// A start tag with more attributes than `Limits.maxAttributes`, cut short while libxml2 is
/// still gathering it, so that the document reads on.
///
/// libxml2 2.9.14 compares a start tag's attributes pair by pair once the whole tag has
/// arrived: one tag with 200,000 took 10 s. So the bytes libxml2 holds of a tag it is still
/// gathering are counted (`LibXMLPushParser`, each time they double); past the limit, the rest
/// of the tag never reaches libxml2: the pushes drop it up to the tag's `>`, and libxml2 gets
/// instead what completes the attribute it holds the start of (`=""`, a closing quote) and
/// the tag's end (`>` or `/>`). libxml2 then compares at most about twice the limit, and the
/// builder keeps the first `maxAttributes` of them (the document is marked not well-formed).
struct OversizedStartTag {
  /// Where in the tag the bytes libxml2 holds end.
  private enum Position: Equatable {
    case elementName, betweenAttributes, attributeName, afterName, afterEquals, unquotedValue
    case quotedValue(UInt8)
  }

  /// What libxml2 needs to end the attribute it holds the start of.
  private let completion: [UInt8]
  /// While the rest is dropped: the open quote (0: none), and whether the last byte outside
  /// quotes was `/` (the tag closes itself).
  private var quote: UInt8
  private var lastWasSlash = false

  /// The tag whose first bytes libxml2 holds (`bytes`, from its `<`), when they hold more than
  /// `limit` attributes (counted by their `=` outside quoted values); nil otherwise, or when
  /// the tag ends within them.
  static func cut(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> OversizedStartTag? {
    var position = Position.elementName
    var count = 0
    var slash = false
    for byte in bytes.dropFirst() {
      let isSpace = byte.isXMLSpace
      switch position {
      case .quotedValue(let quote):
        if byte == quote { position = .betweenAttributes }
        continue
      case .elementName, .unquotedValue:
        if isSpace { position = .betweenAttributes }
      case .betweenAttributes:
        if !isSpace && byte != UInt8(ascii: "/") && byte != UInt8(ascii: ">") {
          position = byte == UInt8(ascii: "=") ? .afterEquals : .attributeName
        }
      case .attributeName, .afterName:
        if byte == UInt8(ascii: "=") {
          position = .afterEquals
        } else if isSpace {
          position = .afterName
        } else if position == .afterName && byte != UInt8(ascii: "/") && byte != UInt8(ascii: ">") {
          position = .attributeName
        }
      case .afterEquals:
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          position = .quotedValue(byte)
        } else if !isSpace && byte != UInt8(ascii: ">") {
          position = .unquotedValue
        }
      }
      if position == .afterEquals && byte == UInt8(ascii: "=") { count += 1 }
      if byte == UInt8(ascii: ">") {
        // The tag ends among the bytes: libxml2 reads it whole (and the builder counts it).
        return nil
      }
      slash = byte == UInt8(ascii: "/")
    }
    guard count > limit else { return nil }
    switch position {
    // A name cut short may be the start of one the tag already has (`a1` of `a12`): libxml2
    // stops at a repeated attribute, so it gets a name that goes on with `·` (a name
    // character no feed writes) instead.
    case .attributeName: return OversizedStartTag(completion: Array("\u{B7}=\"\"".utf8))
    case .afterName: return OversizedStartTag(completion: Array("=\"\"".utf8))
    case .afterEquals: return OversizedStartTag(completion: Array("\"\"".utf8))
    case .quotedValue(let quote): return OversizedStartTag(completion: [quote], quote: quote)
    default:
      var tag = OversizedStartTag(completion: [])
      tag.lastWasSlash = slash
      return tag
    }
  }

  private init(completion: [UInt8], quote: UInt8 = 0) {
    self.completion = completion
    self.quote = quote
  }

  /// Drops the rest of the tag from `bytes`. Once the tag's `>` is among them, returns what
  /// libxml2 gets to end the tag and the bytes after it; nil while all of `bytes` is dropped.
  mutating func skip(_ bytes: UnsafeRawBufferPointer) -> (ending: [UInt8], rest: Int)? {
    for (index, byte) in bytes.enumerated() {
      if quote != 0 {
        if byte == quote { quote = 0 }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        quote = byte
      case UInt8(ascii: ">"):
        return (completion + Array((lastWasSlash ? "/>" : ">").utf8), index + 1)
      default:
        lastWasSlash = byte == UInt8(ascii: "/")
        continue
      }
      lastWasSlash = false
    }
    return nil
  }
}
