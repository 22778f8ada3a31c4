/// Terminal columns a text takes, as terminals draw it (Unicode UAX #11 and the emoji
/// presentation property): East Asian wide and fullwidth characters take two, and so does an
/// emoji, whether one character or a sequence (a flag, a skin tone, a ZWJ family, a text
/// character with the emoji selector U+FE0F); combining marks and format characters take none.
/// Text is measured and cut by grapheme, so a cut never splits an accent from its letter or a
/// family emoji into its people.
public enum DisplayWidth {
  /// The columns of one character as a terminal draws it.
  public static func columns(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    if scalars.count > 1,
      scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F })
    {
      return 2
    }
    return scalars.reduce(0) { $0 + columns(of: $1) }
  }

  /// The columns of one scalar: 0 for controls, combining marks and format characters (zero
  /// width space, joiners), 2 for wide ones, else 1.
  public static func columns(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 { return value < 0x20 || (0x7F...0x9F).contains(value) ? 0 : 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation { return 2 }
    for range in wideRanges where range.contains(value) { return 2 }
    return 1
  }

  /// The columns of a text.
  public static func columns(of text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + columns(of: $1) }
  }

  /// `text` cut to at most `width` columns, with "…" in the last column when cut; never padded.
  public static func cut(_ text: String, to width: Int) -> String {
    guard columns(of: text) > width else { return text }
    guard width > 0 else { return "" }
    var result = ""
    var used = 0
    for character in text {
      let cost = columns(of: character)
      if used + cost > width - 1 { break }
      result.append(character)
      used += cost
    }
    while result.last?.isWhitespace == true { result.removeLast() }
    return result + "…"
  }

  /// `text` cut to `width` columns (see `cut`) and padded with spaces to exactly `width`.
  public static func fitted(_ text: String, to width: Int) -> String {
    let shown = cut(text, to: width)
    return shown + String(repeating: " ", count: max(0, width - columns(of: shown)))
  }

  /// East Asian Wide and Fullwidth blocks (UAX #11) that are not emoji.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
    0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
    0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
    0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD,
    0x30000...0x3FFFD,
  ]
}
