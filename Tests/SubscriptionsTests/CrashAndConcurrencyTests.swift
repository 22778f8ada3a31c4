import FeedPullSupport
import Foundation
import TestSupport
import Testing

@testable import Subscriptions

/// `kill -9` mid-body: the file stays sound, the killed process's leases run out, and no item is
/// lost (at least once).
@Suite struct CrashAndConcurrencyTests {
  static let now: Int64 = 1_796_126_400

  /// Collects a child's stdout as it comes, so a test can wait for what it has written.
  final class GrowingOutput: @unchecked Sendable {
    // @unchecked: `text` is only touched under `lock`.
    private let lock = NSLock()
    private var text = ""
    let grew = EventLatch()

    func append(_ data: Data) {
      lock.lock()
      text += String(decoding: data, as: UTF8.self)
      lock.unlock()
      grew.signal()
    }

    var current: String {
      lock.lock()
      defer { lock.unlock() }
      return text
    }

    /// Waits until `condition` holds for the text, or `timeout` seconds pass.
    func wait(timeout: Double, until condition: (String) -> Bool) -> Bool {
      let deadline = Date(timeIntervalSinceNow: timeout)
      while true {
        // Counted before looking, so growth in between is not waited for a second time.
        let seen = grew.value
        if condition(current) { return true }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return false }
        grew.wait(for: seen + 1, timeout: remaining)
      }
    }
  }

  static func titles(_ text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["type"] as? String == "item"
      else { return nil }
      return object["title"] as? String
    }
  }

  @Test func killNineMidBodyLosesNoItemAndLeavesASoundFile() async throws {
    try await onItsOwnThread {
      let stalled = 3
      let requests = TSanVisibleMutex([String: Int]())
      let server = try LoopbackHTTPServer(routes: [:]) { request in
        let path = request.target
        let count = requests.withLock { counts -> Int in
          counts[path, default: 0] += 1
          return counts[path]!
        }
        let name = String(path.dropFirst())
        let items = (0..<4).map { "\(name)-\($0)" }
        if name.hasPrefix("fast") || count > 1 { return .ok(subscribedFeed(items)) }
        // First request of a stalled source: two whole items, then nothing more.
        let whole = subscribedFeed(items)
        let cut = whole.range(of: "<item><title>\(name)-2")!.lowerBound
        return HTTPScript(
          framing: .chunked, steps: [.send(Array(whole[..<cut].utf8)), .stallForever])
      }
      let sources =
        (0..<2).map { server.url("/fast\($0)") } + (0..<stalled).map { server.url("/stall\($0)") }
      let state = StateRun()
      defer { state.remove() }

      let process = Process()
      process.executableURL = FeedpullProcess.binary
      // Two-second leases: the sources it holds are free again soon after the kill.
      process.environment = ProcessInfo.processInfo.environment.merging(["FEEDPULL_LEASE": "2"]) {
        $1
      }
      // A long timeout: the stalled sources must still be in flight when the kill comes.
      process.arguments =
        [
          "-f", "jsonl", "--timeout", "600", "--per-host", "8", "--host-delay", "0", "--state",
          state.statePath,
        ]
        + sources
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      let output = GrowingOutput()
      pipe.fileHandleForReading.readabilityHandler = { handle in
        let data = handle.availableData
        if !data.isEmpty { output.append(data) }
      }
      try process.run()
      let midBody = output.wait(timeout: 30) { text in
        let titles = Set(Self.titles(text))
        // Item 1 is the last whole one sent: libxml2 may wait for more bytes before ending it.
        return (0..<stalled).allSatisfy { titles.contains("stall\($0)-0") }
          && text.components(separatedBy: "\"type\":\"end\"").count - 1 == 2
      }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      pipe.fileHandleForReading.readabilityHandler = nil
      #expect(midBody, "the first run did not reach the middle of the bodies")
      #expect(process.terminationReason == .uncaughtSignal)
      let firstTitles = Self.titles(output.current)
      let stalledEnd = "\"type\":\"end\",\"source\":\"" + server.url("/stall")
      #expect(!output.current.contains(stalledEnd), "a stalled source ended before the kill")

      let store = try SQLiteSubscriptionStore(path: state.statePath)
      #expect(try store.integrityCheck() == "ok")

      // At once: the killed process's leases still hold its stalled sources, which another run
      // skips as in progress (it cannot know the holder is dead); what had ended was recorded.
      let early = try state.run(sources)
      #expect(early.status == 0, "\(early.stderr)")
      #expect(early.records("item").isEmpty, "\(early.itemStatuses)")
      for index in 0..<stalled {
        #expect(early.end(of: server.url("/stall\(index)"))?["skipped"] as? String == "in_progress")
      }
      // Once the leases have run out, the stalled sources are pulled again.
      try SharedState.waitForLeasesToExpire(state.statePath)
      let second = try state.run(sources)
      #expect(second.status == 0, "\(second.stderr)")
      #expect(second.records("end").allSatisfy { $0["skipped"] == nil })
      let secondTitles = second.records("item").compactMap { $0["title"] as? String }
      let everything = Set(
        (0..<2).flatMap { f in (0..<4).map { "fast\(f)-\($0)" } }
          + (0..<stalled).flatMap { s in (0..<4).map { "stall\(s)-\($0)" } })
      #expect(Set(firstTitles).union(secondTitles) == everything)
      // Sources that had ended were recorded: nothing of theirs comes again.
      #expect(secondTitles.allSatisfy { $0.hasPrefix("stall") })
      #expect(try store.integrityCheck() == "ok")
    }
  }
}
