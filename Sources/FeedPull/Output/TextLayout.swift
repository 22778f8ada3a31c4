/// The lines of the text format for a terminal `width` columns wide: pure functions, so that the
/// layout is tested as tables (widths, CJK, emoji, right-to-left text, long links) without a
/// terminal. Every line fits the width, except a link that is longer than the line: a link is
/// never cut (a cut link is a wrong link), it goes on a line of its own instead.
public enum TextLayout {
  /// `2025-11-01 18:30`: the time column of an item line.
  public static let timeColumns = 16
  /// Two spaces, the time, two spaces: where an item's title starts.
  public static let titleStart = 2 + timeColumns + 2
  /// A title is not cut shorter than this to keep its link beside it; the link moves to a line
  /// of its own instead.
  public static let shortestTitle = 24

  /// The heading of a feed's items: `Title  (SOURCE)`, the title cut to leave the SOURCE whole;
  /// when the two do not fit, the title on one line and the SOURCE under it. The SOURCE alone
  /// when the feed has no title.
  public static func heading(title: String?, source: String, width: Int) -> [String] {
    let source = oneLine(source)
    guard let title = title.map(oneLine), !title.isEmpty else { return [source] }
    let tail = "  (" + source + ")"
    let room = width - DisplayWidth.columns(of: tail)
    if DisplayWidth.columns(of: title) <= room
      || room >= min(shortestTitle, DisplayWidth.columns(of: title))
    {
      return [DisplayWidth.cut(title, to: room) + tail]
    }
    return [DisplayWidth.cut(title, to: width), "  (" + source + ")"]
  }

  /// An item's line: two spaces, `time` (or blanks), two spaces, the title (cut with `…`), an
  /// episode's duration beside it (never cut), then its link; the link on a line of its own,
  /// under the title, when beside it the title would be cut shorter than `shortestTitle`.
  public static func item(
    time: String?, title: String, duration: String? = nil, link: String?, width: Int
  ) -> [String] {
    let time = time ?? String(repeating: " ", count: timeColumns)
    let lead = "  " + time + "  "
    let title = oneLine(title)
    let suffix = duration.map { "  " + $0 } ?? ""
    let titleRoom = max(1, width - titleStart - DisplayWidth.columns(of: suffix))
    guard let link = link.map(oneLine), !link.isEmpty else {
      return [lead + DisplayWidth.cut(title, to: titleRoom) + suffix]
    }
    let linkColumns = DisplayWidth.columns(of: link) + 2
    let besideRoom = titleRoom - linkColumns
    let titleColumns = DisplayWidth.columns(of: title)
    if titleColumns <= besideRoom || besideRoom >= min(shortestTitle, titleColumns) {
      return [lead + DisplayWidth.cut(title, to: besideRoom) + suffix + "  " + link]
    }
    let indent = titleStart + DisplayWidth.columns(of: link) <= width ? titleStart : 4
    return [
      lead + DisplayWidth.cut(title, to: titleRoom) + suffix,
      String(repeating: " ", count: indent) + link,
    ]
  }

  /// Text for one line of a terminal: what a terminal acts on removed (`TerminalText.safe`),
  /// line breaks, tabs and runs of spaces folded to one space, ends trimmed.
  public static func oneLine(_ text: String) -> String {
    TerminalText.safe(text).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}
