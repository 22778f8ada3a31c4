import FeedParser
import HTTPWorker
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Records for a person at a terminal: the feed's title, then one aligned line per item
/// (local date and time, title, link). When records of several sources interleave, the feed's
/// title is repeated whenever the source changes, so every item line stays under its feed.
public final class TextWriter: PullRecordSink {
  private struct State {
    var pending: [UInt8] = []
    var titles: [String: String] = [:]
    var lastSource: String?
  }

  private let output: FileDescriptorOutput
  private let columns: Int
  private let state = TSanVisibleMutex(State())

  public init(fileDescriptor: Int32, columns: Int = 80) {
    output = FileDescriptorOutput(fileDescriptor: fileDescriptor)
    self.columns = max(40, columns)
  }

  public func receive(_ record: PullRecord) {
    state.withLock { state in
      switch record {
      case .feed(let feed):
        let title = feed.channel.title.map(TextWriter.oneLine) ?? feed.source
        state.titles[feed.source] = title
        heading(feed.source, &state)
      case .item(let item):
        if state.lastSource != item.source { heading(item.source, &state) }
        state.pending.append(contentsOf: line(for: item.item).utf8)
      case .end(let end):
        if end.items == 0, end.ok, state.lastSource != end.source { heading(end.source, &state) }
        state.titles[end.source] = nil
      }
    }
  }

  public func flush() {
    state.withLock { state in
      guard !state.pending.isEmpty else { return }
      output.write(state.pending)
      state.pending.removeAll(keepingCapacity: true)
    }
  }

  private func heading(_ source: String, _ state: inout State) {
    if state.lastSource != nil { state.pending.append(UInt8(ascii: "\n")) }
    state.lastSource = source
    let title = state.titles[source] ?? source
    let suffix = title == source ? "" : "  (\(source))"
    state.pending.append(contentsOf: (title + suffix + "\n").utf8)
  }

  private func line(for item: FeedItem) -> String {
    let date = TextWriter.localTime(item.published ?? item.updated)
    let title = TextWriter.oneLine(item.title ?? item.link ?? item.id ?? "(untitled)")
    let link = item.link ?? ""
    let fixed = 2 + 16 + 2
    let linkColumns = DisplayWidth.columns(of: link)
    let titleWidth = max(24, columns - fixed - (link.isEmpty ? 0 : linkColumns + 2))
    var text = "  " + date + "  " + DisplayWidth.fitted(title, to: titleWidth)
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

  /// Titles may carry line breaks and runs of spaces; a line wants one space.
  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}
