import FeedPullSupport
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A `feedpull --watch` process on a fresh state file, in real time: the tests use intervals of
/// one or two seconds (`--min-interval 1s --max-interval 2s`) instead of moving a clock.
struct WatchRun {
  let state = StateRun()

  /// `feedpull --watch -f jsonl --state PATH` (every test server is one site: no host delay)
  /// with `arguments`.
  func start(_ arguments: [String]) throws -> RunningFeedpull {
    try RunningFeedpull(
      [
        "--watch", "-f", "jsonl", "--state", state.statePath, "--per-host", "8",
        "--host-delay", "0",
      ] + arguments)
  }

  func remove() { state.remove() }
}

/// Feeds whose items a test publishes while a watch runs.
final class PublishedFeeds: Sendable {
  private let items = TSanVisibleMutex<[String: [String]]>([:])

  init(_ initial: [String: [String]]) {
    items.withLock { $0 = initial }
  }

  func publish(_ title: String, on path: String) {
    items.withLock { $0[path, default: []].append(title) }
  }

  /// The server's answer for `request`, nil for a path with no feed.
  func script(for request: RecordedRequest) -> HTTPScript? {
    guard let titles = items.withLock({ $0[request.target] }) else { return nil }
    return .ok(subscribedFeed(titles))
  }
}

extension LoopbackHTTPServer {
  /// When each request for `path` arrived (system uptime, seconds).
  func arrivals(_ path: String) -> [Double] {
    requests.filter { $0.target == path }.map(\.receivedAt)
  }
}

/// CPU time (user + system, seconds) and voluntary context switches of every thread of `pid`,
/// from /proc.
func processCost(_ pid: Int32) -> (cpu: Double, switches: Int) {
  let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
  var cpu = 0.0
  if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    if fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) {
      cpu = (user + system) / ticks
    }
  }
  var switches = 0
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
  for task in tasks {
    guard
      let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
    else { continue }
    for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
      switches += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
    }
  }
  return (cpu, switches)
}

/// Runs `body` on a thread of its own and waits for it without holding a thread of Swift's
/// cooperative pool: the end-to-end tests block for seconds (a process to finish, a lease to
/// run out), and a synchronous test that blocks holds one of the pool's two threads here, which
/// starves the async tests that run beside it. An expectation that fails in `body` fails the run
/// with its file and line (Swift Testing cannot name the test from another thread).
func onItsOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread {
      do {
        continuation.resume(returning: try body())
      } catch {
        continuation.resume(throwing: error)
      }
    }.start()
  }
}
