/// Terminal columns a text takes: East Asian wide and fullwidth characters take two, combining
/// marks none. Enough to align Japanese titles in the text format (Unicode UAX #11, roughly).
enum DisplayWidth {
  static func columns(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 { return value < 0x20 ? 0 : 1 }
    if scalar.properties.generalCategory == .nonspacingMark
      || scalar.properties.generalCategory == .enclosingMark || value == 0x200B
    {
      return 0
    }
    for range in wideRanges where range.contains(value) { return 2 }
    return 1
  }

  static func columns(of text: some StringProtocol) -> Int {
    text.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
  }

  /// `text` cut to at most `width` columns (with "…" when cut) and padded with spaces to it.
  static func fitted(_ text: String, to width: Int) -> String {
    var result = ""
    var used = 0
    let total = columns(of: text)
    let limit = total > width ? width - 1 : width
    for scalar in text.unicodeScalars {
      let cost = columns(of: scalar)
      if used + cost > limit { break }
      result.unicodeScalars.append(scalar)
      used += cost
    }
    if total > width {
      result += "…"
      used += 1
    }
    return result + String(repeating: " ", count: max(0, width - used))
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
  ]
}
