import CLibXML2

/// Which libxml2 this process runs, and whether the text hand-over may rely on it.
///
/// The hand-over (`StreamingFeedParser.route`) reads libxml2's private parser state (`instate`,
/// `wellFormed`, `disableSAX`, the input cursor) to know that libxml2 has parsed every byte so far
/// and would pass the next text through unchanged. That state is not API: it was verified on
/// 2.9.14 (Debian 12's), by the equivalence tests and the fuzzer's oracle, which compare the
/// hand-over with libxml2 reading all text itself. On another version the parser keeps working
/// as before, only without the shortcut: libxml2 then reads all text, which is slower and
/// gives the same records.
public enum LibXMLVersion {
  /// The versions the hand-over was verified on, as libxml2 numbers them (2.9.14 is 20914).
  public static let verified: Set<Int> = [20914]

  /// The version of the libxml2 loaded at run time (which may differ from the headers').
  public static let runtime: Int = {
    guard let version = __xmlParserVersion()?.pointee else { return 0 }
    return Int(String(cString: version)) ?? 0
  }()

  /// The version of the headers feedpull was built against.
  public static let built = Int(LIBXML_VERSION)

  /// True when the text hand-over is on.
  public static let allowsTextHandOver = verified.contains(runtime) && runtime == built

  /// One line for `--verbose` when the hand-over is off; nil when it is on.
  public static var note: String? {
    allowsTextHandOver
      ? nil
      : "libxml2 \(runtime) (built against \(built)) is not one the text hand-over was verified "
        + "on (\(verified.sorted().map(String.init).joined(separator: ", "))): libxml2 reads all "
        + "text itself, which is slower and gives the same records"
  }
}
