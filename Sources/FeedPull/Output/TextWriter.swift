import FeedParser
import FeedPullSupport
import HTTPWorker

#if canImport(Glibc)
  import Glibc
#endif

/// Records for a person at a terminal: the feed's title, then one aligned line per item
/// (local date and time, title, link). Sources are shown one after another, never interleaved:
/// the first source to speak streams as its items arrive; the lines of the others wait until it
/// ends (a few dozen bytes an item), then the next one in order of arrival takes its turn.
public final class TextWriter: PullRecordSink {
  private struct State {
    var pending: [UInt8] = []
    /// The source whose lines go out as they come.
    var current: String?
    /// Lines of the other sources, in order of their first record, and which have ended.
    var waiting: [(source: String, lines: [UInt8])] = []
    var ended: Set<String> = []
    var headed: Set<String> = []
    var anyHeading = false
  }

  private let output: FileDescriptorOutput
  private let columns: Int
  private let state = TSanVisibleMutex(State())

  /// - Parameter onWriteFailure: called once, with `strerror`'s text, when a write fails.
  public init(
    fileDescriptor: Int32, columns: Int = 80, onWriteFailure: (@Sendable (String) -> Void)? = nil
  ) {
    output = FileDescriptorOutput(fileDescriptor: fileDescriptor, onFailure: onWriteFailure)
    self.columns = max(40, columns)
  }

  /// True once a write failed; further output is dropped.
  public var failed: Bool { output.failureMessage != nil }

  /// Formats the record as lines for a person; a source that is not the one speaking keeps its
  /// lines until its turn.
  public func receive(_ record: PullRecord) {
    state.withLock { state in
      let source = record.source
      var text = ""
      switch record {
      case .feed(let feed):
        text = heading(source, title: feed.channel.title, &state)
      case .item(let item):
        text = heading(source, title: nil, &state) + line(for: item.item)
      case .end(let end):
        if end.ok { text = heading(source, title: nil, &state) }
      }
      if state.current == nil { state.current = source }
      if state.current == source {
        state.pending.append(contentsOf: text.utf8)
      } else if let index = state.waiting.firstIndex(where: { $0.source == source }) {
        state.waiting[index].lines.append(contentsOf: text.utf8)
      } else {
        state.waiting.append((source, Array(text.utf8)))
      }
      if case .end = record {
        state.ended.insert(source)
        if state.current == source { takeNextTurn(&state) }
      }
    }
  }

  /// Writes the lines formatted so far to the file descriptor.
  public func flush() {
    state.withLock { state in
      guard !state.pending.isEmpty else { return }
      output.write(state.pending)
      state.pending.removeAll(keepingCapacity: true)
    }
  }

  /// The current source has ended: release waiting sources in order until one still runs.
  private func takeNextTurn(_ state: inout State) {
    state.current = nil
    while !state.waiting.isEmpty {
      let next = state.waiting.removeFirst()
      state.pending.append(contentsOf: next.lines)
      if !state.ended.contains(next.source) {
        state.current = next.source
        return
      }
    }
  }

  /// The source's title line, once per source (blank line between sources).
  private func heading(_ source: String, title: String?, _ state: inout State) -> String {
    guard state.headed.insert(source).inserted else { return "" }
    let separator = state.anyHeading ? "\n" : ""
    state.anyHeading = true
    let shown = URLPasswordMask.masked(source)
    guard let title = title.map(TextWriter.oneLine), !title.isEmpty else {
      return separator + shown + "\n"
    }
    return separator + title + "  (" + shown + ")\n"
  }

  private func line(for item: FeedItem) -> String {
    let date = TextWriter.localTime(item.published ?? item.updated)
    let title = TextWriter.oneLine(item.title ?? item.link ?? item.id ?? "(untitled)")
    let link = item.link ?? ""
    let fixed = 2 + 16 + 2
    let linkColumns = DisplayWidth.columns(of: link)
    let titleWidth = max(24, columns - fixed - (link.isEmpty ? 0 : linkColumns + 2))
    // A podcast episode's length is what a listener picks by, so it stands beside the title.
    let duration = item.itunes?.duration.map(TextWriter.clockTime) ?? ""
    let durationColumns = duration.isEmpty ? 0 : duration.count + 2
    var text = "  " + date + "  "
    if duration.isEmpty {
      text += DisplayWidth.fitted(title, to: titleWidth)
    } else {
      let fitted = DisplayWidth.fitted(title, to: max(8, titleWidth - durationColumns))
      var trimmed = Substring(fitted)
      while trimmed.last == " " { trimmed.removeLast() }
      let shown = trimmed + "  " + duration
      let padding = max(0, titleWidth - DisplayWidth.columns(of: String(shown)))
      text += shown + String(repeating: " ", count: padding)
    }
    if !link.isEmpty { text += "  " + link }
    while text.last == " " { text.removeLast() }
    return text + "\n"
  }

  /// `2025-11-01 18:30` in the local time zone, or blanks when the item has no readable date.
  private static func localTime(_ date: FeedDate?) -> String {
    guard case .instant(let seconds) = date else { return String(repeating: " ", count: 16) }
    var time = time_t(seconds)
    var parts = tm()
    guard localtime_r(&time, &parts) != nil else { return String(repeating: " ", count: 16) }
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min))"
  }

  /// `1:02:03` from an hour up, `2:03` below.
  static func clockTime(_ seconds: Int) -> String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let hours = seconds / 3600
    let minutes = seconds / 60 % 60
    if hours > 0 { return "\(hours):\(two(minutes)):\(two(seconds % 60))" }
    return "\(minutes):\(two(seconds % 60))"
  }

  /// Titles may carry line breaks and runs of spaces; a line wants one space.
  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}
