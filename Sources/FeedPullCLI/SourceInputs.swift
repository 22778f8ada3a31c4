import FeedPull
import Subscriptions

/// The sources a run pulls: the SOURCE operands, then those of the `-i` list (`-i -`: standard
/// input). A SOURCE that names no file but reads like a web address without its scheme is a
/// usage error that suggests the URL, whether it was typed or listed.
enum SourceInputs {
  /// The sources, each once, read into a `SourceList` (a list file a block at a time, no
  /// `String` kept per source).
  static func gatherList(_ options: CommandLineOptions) throws(UsageError) -> SourceList {
    var listed = SourceList()
    var hint: UsageError?
    func check(_ source: String) {
      if hint == nil { hint = addressHint(for: source, to: "pull it from the web") }
    }
    for source in options.sources {
      check(source)
      listed.append(source)
    }
    if let input = options.inputFile {
      do {
        try listed.append(contentsOfListAt: input) { source in
          // A URL (`://`) or a path (`/`, `.`, `~`) needs no hint: no `String` for those.
          guard let first = source.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "."),
            first != UInt8(ascii: "~"), !Self.containsScheme(source)
          else { return }
          check(String(decoding: source, as: UTF8.self))
        }
      } catch {
        throw UsageError(message: error.description)
      }
    }
    if let hint { throw hint }
    return listed
  }

  /// The usage error for a source that names no file but reads like a web address without its
  /// scheme (`example.com/feed`), suggesting the URL to give; nil for any other source. `doing`
  /// says what the command would do with it (`pull it from the web`).
  static func addressHint(for source: String, to doing: String) -> UsageError? {
    SourceAddressHint.suggestion(for: source).map {
      UsageError(message: "\(source) is no file; to \(doing), give its URL: \($0)")
    }
  }

  private static func containsScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count >= 3 else { return false }
    for index in 0..<(bytes.count - 2)
    where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
      && bytes[index + 2] == UInt8(ascii: "/")
    {
      return true
    }
    return false
  }

  /// True when a SIGHUP can read the list again: a file, not standard input.
  static func canReread(_ options: CommandLineOptions) -> Bool {
    options.inputFile.map { $0 != "-" } ?? false
  }
}
