import FeedPullSupport

/// Follows where `XMLRepairFilter` is in a document's markup, one byte at a time, so that it
/// repairs references only in character data and attribute values: inside CDATA sections,
/// comments, processing instructions and the DOCTYPE a bare `&` is legal or not ours to touch
/// (XML 1.0 §2.4–2.8). It also collects the general entities the internal subset declares,
/// whose references must reach libxml2 unchanged.
///
/// Every byte it is given is passed through unchanged; keywords (`<![CDATA[`, `<!--`,
/// `<!DOCTYPE`, `<!ENTITY`) are matched one byte at a time, so a keyword split across chunks
/// needs no buffering.
struct XMLMarkupTracker {
  /// The keywords that may follow `<!`.
  enum Keyword {
    case comment, cdata, doctype, entity

    /// The keyword's bytes after `<!` (static text: no allocation on the hot path).
    var text: StaticString {
      switch self {
      case .comment: "--"
      case .cdata: "[CDATA["
      case .doctype: "DOCTYPE"
      case .entity: "ENTITY"
      }
    }

    /// The keyword starting with `byte`, among those allowed in text or in the subset.
    static func starting(with byte: UInt8, inSubset: Bool) -> Keyword? {
      switch byte {
      case UInt8(ascii: "-"): .comment
      case UInt8(ascii: "["): inSubset ? nil : .cdata
      case UInt8(ascii: "D"): inSubset ? nil : .doctype
      case UInt8(ascii: "E"): inSubset ? .entity : nil
      default: nil
      }
    }
  }

  enum State: Equatable {
    /// Character data and tags: references are live here.
    case text
    /// After `<` in text.
    case tagOpen
    /// After `<!`, having matched `matched` bytes of `keyword` (none yet when nil).
    case declarationStart(inSubset: Bool, keyword: Keyword?, matched: Int)
    /// Inside `<!--` or `<?`, until its `-->` or `?>`.
    case commentOrPI(inSubset: Bool, CommentOrPIBody)
    /// Inside `<![CDATA[`, counting the `]` just seen.
    case cdata(brackets: Int)
    /// Inside `<!DOCTYPE` outside the internal subset; `quote` is the open quote or 0.
    case doctype(quote: UInt8)
    /// Inside the internal subset `[ … ]`, between declarations.
    case subset
    /// After `<` in the internal subset.
    case subsetTagOpen
    /// After `<!ENTITY`: white space, then `%` (a parameter entity) or the name.
    case entityBeforeName
    case entityName
    /// Inside any other markup declaration, or the rest of an `<!ENTITY`, until its `>`.
    case declaration(quote: UInt8)
  }

  private(set) var state = State.text
  /// General entities the internal subset declares (XML 1.0 §4.2), as their name bytes.
  private(set) var declaredEntities = Set<[UInt8]>()
  private(set) var longestDeclaredName = 0
  private var entityNameBytes: [UInt8] = []

  /// Names longer than this are not remembered (a reference to one reads as unknown).
  static let longestRememberedName = 1024

  var isInText: Bool {
    if case .text = state { return true }
    return false
  }

  /// Called for the `<` that text hands over.
  mutating func enterTag() { state = .tagOpen }

  /// Inside a CDATA section, the `]` just seen (0 to 2); nil elsewhere.
  var cdataBrackets: Int? {
    if case .cdata(let brackets) = state { return brackets }
    return nil
  }

  /// Inside a CDATA section: the `]` seen were content after all.
  mutating func forgetCDATABrackets() { state = .cdata(brackets: 0) }

  /// The end of the run from `start` that can be copied without looking at each byte: the
  /// inside of comments, CDATA sections and processing instructions up to the next byte that
  /// could end them or that is a control. Returns `start` in every other state.
  func verbatimEnd(_ input: UnsafeRawBufferPointer, from start: Int) -> Int {
    var index = start
    switch state {
    case .commentOrPI(_, let body) where body.isBetweenDelimiters:
      let delimiterStart = body.delimiterStart
      while index < input.count, input[index] != delimiterStart, input[index] >= 0x20 {
        index += 1
      }
    case .cdata(brackets: 0):
      // Eight bytes at a time to the next byte that may matter; line breaks and tabs, frequent
      // in HTML content, change no state and are stepped over here.
      while index < input.count {
        while index &+ 16 <= input.count {
          let first = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          let second = input.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
          let stops =
            ByteWord.matches(first, UInt8(ascii: "]")) | ByteWord.matchesBelow(first, 0x20)
            | ByteWord.matches(second, UInt8(ascii: "]")) | ByteWord.matchesBelow(second, 0x20)
          guard stops == 0 else { break }
          index &+= 16
        }
        guard index < input.count else { break }
        if index + 8 <= input.count {
          let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          let stops = ByteWord.matches(word, UInt8(ascii: "]")) | ByteWord.matchesBelow(word, 0x20)
          if stops == 0 {
            index += 8
            continue
          }
          index += ByteWord.firstMatch(stops)
        }
        let byte = input[index]
        if byte == UInt8(ascii: "]") || (byte < 0x20 && !byte.isXMLSpace) { break }
        index += 1
      }
    default: break
    }
    return index
  }

  /// Moves past one byte (never a dropped control). Returns false when the byte belongs to
  /// the state just entered and must be stepped again (`<a`: `a` is text again).
  mutating func step(_ byte: UInt8) -> Bool {
    switch state {
    case .text:
      if byte == UInt8(ascii: "<") { state = .tagOpen }
    case .tagOpen, .subsetTagOpen:
      var inSubset = false
      if case .subsetTagOpen = state { inSubset = true }
      switch byte {
      case UInt8(ascii: "!"):
        state = .declarationStart(inSubset: inSubset, keyword: nil, matched: 0)
      case UInt8(ascii: "?"):
        state = .commentOrPI(inSubset: inSubset, CommentOrPIBody(.processingInstruction))
      default:
        state = inSubset ? .subset : .text
        return false
      }
    case .declarationStart(let inSubset, let keyword, let matched):
      return stepKeyword(byte, inSubset: inSubset, keyword: keyword, matched: matched)
    case .commentOrPI(let inSubset, var body):
      state =
        body.step(byte) ? (inSubset ? .subset : .text) : .commentOrPI(inSubset: inSubset, body)
    case .cdata(let brackets):
      if byte == UInt8(ascii: ">") && brackets == 2 {
        state = .text
      } else if byte == UInt8(ascii: "]") {
        state = .cdata(brackets: min(brackets + 1, 2))
      } else {
        state = .cdata(brackets: 0)
      }
    case .doctype(let quote):
      if quote != 0 {
        if byte == quote { state = .doctype(quote: 0) }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        state = .doctype(quote: byte)
      } else if byte == UInt8(ascii: "[") {
        state = .subset
      } else if byte == UInt8(ascii: ">") {
        state = .text
      }
    case .subset:
      if byte == UInt8(ascii: "]") {
        state = .doctype(quote: 0)
      } else if byte == UInt8(ascii: "<") {
        state = .subsetTagOpen
      }
    case .entityBeforeName:
      if byte.isXMLSpace { return true }
      if byte == UInt8(ascii: "%") {
        // `<!ENTITY % name …>` declares a parameter entity, which `&name;` cannot reference.
        state = .declaration(quote: 0)
        return true
      }
      entityNameBytes.removeAll(keepingCapacity: true)
      state = .entityName
      return false
    case .entityName:
      if byte.isXMLSpace || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        || byte == UInt8(ascii: ">")
      {
        rememberEntityName()
        state = .declaration(quote: 0)
        return false
      }
      if entityNameBytes.count <= Self.longestRememberedName { entityNameBytes.append(byte) }
    case .declaration(let quote):
      if quote != 0 {
        if byte == quote { state = .declaration(quote: 0) }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        state = .declaration(quote: byte)
      } else if byte == UInt8(ascii: ">") {
        state = .subset
      }
    }
    return true
  }

  private mutating func stepKeyword(_ byte: UInt8, inSubset: Bool, keyword: Keyword?, matched: Int)
    -> Bool
  {
    let keyword = keyword ?? Keyword.starting(with: byte, inSubset: inSubset)
    guard let keyword, keyword.text.utf8Start[matched] == byte else {
      // Another declaration (`<!ELEMENT`, `<!ATTLIST`), or not markup at all.
      state = inSubset ? .declaration(quote: 0) : .text
      return false
    }
    guard matched + 1 == keyword.text.utf8CodeUnitCount else {
      state = .declarationStart(inSubset: inSubset, keyword: keyword, matched: matched + 1)
      return true
    }
    switch keyword {
    case .comment: state = .commentOrPI(inSubset: inSubset, CommentOrPIBody(.comment))
    case .cdata: state = .cdata(brackets: 0)
    case .doctype: state = .doctype(quote: 0)
    case .entity: state = .entityBeforeName
    }
    return true
  }

  private mutating func rememberEntityName() {
    guard !entityNameBytes.isEmpty, entityNameBytes.count <= Self.longestRememberedName else {
      return
    }
    declaredEntities.insert(entityNameBytes)
    longestDeclaredName = max(longestDeclaredName, entityNameBytes.count)
  }
}
