import FeedPull

/// The sources a run pulls: the SOURCE operands, then those of the `-i` list (`-i -`: standard
/// input). A SOURCE that names no file but reads like a web address without its scheme is a
/// usage error that suggests the URL, whether it was typed or listed.
enum SourceInputs {
  static func gather(_ options: CommandLineOptions) throws(UsageError) -> [String] {
    var sources = options.sources
    if let input = options.inputFile {
      do {
        sources += try SubscriptionList.read(path: input)
      } catch {
        throw UsageError(message: error.description)
      }
    }
    for source in sources {
      if let url = SourceAddressHint.suggestion(for: source) {
        throw UsageError(
          message: "\(source) is no file; to pull it from the web, give its URL: \(url)")
      }
    }
    return sources
  }

  /// True when a SIGHUP can read the list again: a file, not standard input.
  static func canReread(_ options: CommandLineOptions) -> Bool {
    options.inputFile.map { $0 != "-" } ?? false
  }
}
