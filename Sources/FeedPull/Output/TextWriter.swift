import FeedParser
import FeedPullSupport
import HTTPWorker

#if canImport(Glibc)
  import Glibc
#endif

/// Records for a person at a terminal: a feed's items under its title (`TextLayout.heading`),
/// one line each, local date and time, title, link (`TextLayout.item`), every line within the
/// terminal's width. A source that wrote no item shows nothing (unless `Style.headsQuietSources`).
///
/// Sources are shown one after another, never interleaved: the first source to speak streams as
/// its items arrive; the lines of the others wait until it ends (a few dozen bytes an item), then
/// the next one in order of arrival takes its turn. A heading is written again for each pull of
/// a source that brings items, so a watch shows each new item under its feed.
public final class TextWriter: PullRecordSink {
  /// What the lines show beyond the items.
  public struct Style: Sendable {
    /// `-v`: a heading also for a source that wrote no item (a 304, an empty feed, a failure).
    public var headsQuietSources = false
    /// A watch: each item's line shows the local time it was written (seconds since 1970 from
    /// this clock) instead of the item's own date.
    public var lineClock: (@Sendable () -> Int64)?

    /// Items only, each with its own date.
    public init() {}
  }

  private struct State {
    var pending: [UInt8] = []
    /// The source whose lines go out as they come.
    var current: String?
    /// The other sources with lines, in order of their first line (from `waitingHead` on), their
    /// lines by source, and those of them that have ended: a look-up and a turn cost the same
    /// however many wait (a `--due -i` pass with `-v` queues a heading for every source not due
    /// while a due one speaks).
    var waiting: [String] = []
    var waitingHead = 0
    var waitingLines: [String: [UInt8]] = [:]
    var ended: Set<String> = []
    /// The feed title of each source being pulled, from its `feed` record.
    var titles: [String: String] = [:]
    /// Sources whose heading this pull has written.
    var headed: Set<String> = []
    var anyHeading = false
  }

  private let output: FileDescriptorOutput
  private let columns: Int
  private let style: Style
  private let state = TSanVisibleMutex(State())

  /// - Parameter columns: the terminal's width; lines fit it (at least 20 columns are assumed).
  /// - Parameter onWriteFailure: called once, with `strerror`'s text, when a write fails.
  public init(
    fileDescriptor: Int32, columns: Int = 80, style: Style = Style(),
    onWriteFailure: (@Sendable (String) -> Void)? = nil
  ) {
    output = FileDescriptorOutput(fileDescriptor: fileDescriptor, onFailure: onWriteFailure)
    self.columns = max(20, columns)
    self.style = style
  }

  /// True once a write failed; further output is dropped.
  public var failed: Bool { output.failureMessage != nil }

  /// Formats the record as lines for a person; a source that is not the one speaking keeps its
  /// lines until its turn.
  public func receive(_ record: PullRecord) {
    state.withLock { state in
      let source = record.source
      switch record {
      case .feed(let feed):
        if let title = feed.channel.title {
          state.titles[source] = plainText(title, feed.channel.titleType)
        }
      case .item(let item):
        place(heading(source, &state) + lines(for: item.item), of: source, &state)
      case .end:
        end(source, &state)
      }
    }
  }

  /// Each end as a record's would be (a heading with `-v`, the source's turn given up), under
  /// one lock, from the names alone.
  public func receive(unpulled ends: any UnpulledEndBatch) {
    state.withLock { state in
      for index in 0..<ends.count { end(ends.source(at: index), &state) }
    }
  }

  /// A source's end: its heading when quiet sources are headed, and its turn over. A source
  /// with nothing to show and no lines waiting (a 304 or a source not due, while another one
  /// speaks) takes no turn at all: each such end once joined the queue, and with it every later
  /// one scanned the queue, a `--due -i` pass over a million names taking minutes.
  private func end(_ source: String, _ state: inout State) {
    let text = style.headsQuietSources ? heading(source, &state) : ""
    state.headed.remove(source)
    state.titles[source] = nil
    if text.isEmpty, state.current != source, state.waitingLines[source] == nil { return }
    place(text, of: source, &state)
    if state.current == source { takeNextTurn(&state) } else { state.ended.insert(source) }
  }

  /// Queues `text` of `source`: out at the next flush when it is the source speaking (or none
  /// is), else kept until its turn.
  private func place(_ text: String, of source: String, _ state: inout State) {
    if state.current == nil { state.current = source }
    if state.current == source {
      state.pending.append(contentsOf: text.utf8)
    } else if state.waitingLines[source] != nil {
      state.waitingLines[source]!.append(contentsOf: text.utf8)
    } else {
      state.waitingLines[source] = Array(text.utf8)
      state.waiting.append(source)
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
    defer {
      // The queue's taken front let go once it is most of the array.
      if state.waitingHead == state.waiting.count {
        state.waiting.removeAll(keepingCapacity: true)
        state.waitingHead = 0
      } else if state.waitingHead >= 1024, state.waitingHead * 2 >= state.waiting.count {
        state.waiting.removeFirst(state.waitingHead)
        state.waitingHead = 0
      }
    }
    while state.waitingHead < state.waiting.count {
      let next = state.waiting[state.waitingHead]
      state.waitingHead += 1
      if let lines = state.waitingLines.removeValue(forKey: next) {
        state.pending.append(contentsOf: lines)
      }
      if state.ended.remove(next) == nil {
        state.current = next
        return
      }
    }
  }

  /// The source's heading, once per pull (a blank line before it, but for the first).
  private func heading(_ source: String, _ state: inout State) -> String {
    guard state.headed.insert(source).inserted else { return "" }
    let separator = state.anyHeading ? "\n" : ""
    state.anyHeading = true
    let lines = TextLayout.heading(
      title: state.titles[source], source: URLPasswordMask.masked(source), width: columns)
    return separator + lines.joined(separator: "\n") + "\n"
  }

  private func lines(for item: FeedItem) -> String {
    let time: String?
    if let clock = style.lineClock {
      time = LocalTime.dateAndTime(clock())
    } else if case .instant(let seconds) = item.published ?? item.updated {
      time = LocalTime.dateAndTime(seconds)
    } else {
      time = nil
    }
    let title = item.title.map { plainText($0, item.titleType) }.flatMap { $0.isEmpty ? nil : $0 }
    // A podcast episode's length is what a listener picks by, so it stands beside the title.
    let duration = item.itunes?.duration.map(TextWriter.clockTime)
    let lines = TextLayout.item(
      time: time, title: title ?? item.link ?? item.id ?? "(untitled)", duration: duration,
      link: item.link, width: columns)
    return lines.joined(separator: "\n") + "\n"
  }

  /// A title as plain text for one line, whatever its type and whatever `--html` made of it:
  /// HTML rendered as text (`Dev &amp; Ops <i>Weekly</i>` shows as `Dev & Ops Weekly`).
  private func plainText(_ text: String, _ type: String?) -> String {
    TextLayout.oneLine(TerminalText.plain(text, type: type))
  }

  /// `1:02:03` from an hour up, `2:03` below.
  static func clockTime(_ seconds: Int) -> String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let hours = seconds / 3600
    let minutes = seconds / 60 % 60
    if hours > 0 { return "\(hours):\(two(minutes)):\(two(seconds % 60))" }
    return "\(minutes):\(two(seconds % 60))"
  }
}
