/// Text from a feed or a server made safe to write to a terminal.
///
/// A feed's title is someone else's text: printed as it is, `ESC [2J` clears the screen, an OSC
/// sequence renames the terminal or fills the clipboard (OSC 52), a C1 control (U+009B is a
/// one-character CSI on many terminals) does the same without an ESC, and a bidirectional
/// override makes a line read differently from what it holds. Every string `feedpull` shows a
/// person, on standard output in the text format and on standard error, goes through
/// `TerminalText.safe` first; a tool that embeds the library and prints feed text should too.
public enum TerminalText {
  /// `text` without the characters a terminal could act on: C0 controls other than tab and
  /// line feed (ESC, CR, BEL, backspace, …), DEL, the C1 controls U+0080–U+009F, and the
  /// bidirectional overrides and isolates U+202A–U+202E and U+2066–U+2069. Everything else is
  /// kept; a string with nothing to remove is returned as it is, without a copy.
  public static func safe(_ text: String) -> String {
    var text = text
    let clean = text.withUTF8 { firstRemoved($0) == nil }
    if clean { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !isRemoved(scalar) { scalars.append(scalar) }
    return String(scalars)
  }

  /// A feed's text field as a person reads it: HTML (`type` `text/html` or
  /// `application/xhtml+xml`) rendered as plain text as `--html text` renders it, whatever
  /// the run's `--html`, then made `safe`. What the text format shows for a title.
  public static func plain(_ text: String, type: String?) -> String {
    let isHTML = type == "text/html" || type == "application/xhtml+xml"
    return safe(isHTML ? HTMLPlainText.render(text) : text)
  }

  /// True for a character `safe` removes.
  public static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// The offset of the first byte of a removed character in valid UTF-8, or nil. Most text
  /// is printable ASCII or letters: one pass over the bytes, looking closer only at the lead
  /// bytes that can begin a removed character (controls, DEL, `C2` for C1, `E2` for the
  /// bidirectional controls).
  static func firstRemoved(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      switch byte {
      case 0x09, 0x0A: break
      case 0x00...0x1F, 0x7F: return index
      case 0xC2:
        if index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) { return index }
      case 0xE2:
        if index + 2 < count {
          let second = bytes[index + 1]
          let third = bytes[index + 2]
          if second == 0x80 && (0xAA...0xAE).contains(third) { return index }
          if second == 0x81 && (0xA6...0xA9).contains(third) { return index }
        }
      default: break
      }
      index += 1
    }
    return nil
  }
}
