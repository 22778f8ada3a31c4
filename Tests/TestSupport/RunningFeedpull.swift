import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A `feedpull` process that a test watches while it runs: to signal it mid-transfer, or kill it
/// once some output has appeared. Output is read as it comes, and waits end on the output
/// itself (with a deadline), never on a sleep.
public final class RunningFeedpull: @unchecked Sendable {
  private let process = Process()
  private let condition = NSCondition()
  private var out = Data()  // guarded by `condition`
  private var err = Data()  // guarded by `condition`
  private var openPipes = 2  // guarded by `condition`
  private let exited = DispatchSemaphore(value: 0)
  private let outputEvents: EventLatch?

  /// Starts `feedpull arguments…` (or `executable`) with stdin closed. `outputEvents`, when
  /// given, is signalled each time stdout brings more: one latch can follow several processes.
  public init(
    _ arguments: [String], executable: URL = FeedpullProcess.binary,
    outputEvents: EventLatch? = nil
  ) throws {
    self.outputEvents = outputEvents
    process.executableURL = executable
    process.arguments = arguments
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    let exited = exited
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    read(stdout.fileHandleForReading, isStandardOutput: true)
    read(stderr.fileHandleForReading, isStandardOutput: false)
  }

  public var pid: Int32 { process.processIdentifier }

  /// Sends `signal` (SIGINT, SIGTERM, SIGKILL, …) to the process.
  public func send(_ signal: Int32) {
    kill(process.processIdentifier, signal)
  }

  /// Waits until stdout holds `count` occurrences of `text`, or `timeout` seconds pass.
  @discardableResult
  public func waitForOutput(_ text: String, count: Int = 1, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    let needle = Data(text.utf8)
    condition.lock()
    defer { condition.unlock() }
    while occurrences(of: needle, in: out) < count {
      if openPipes == 0 || !condition.wait(until: deadline) {
        return occurrences(of: needle, in: out) >= count
      }
    }
    return true
  }

  /// How many times `text` occurs in stdout so far.
  public func outputCount(of text: String) -> Int {
    condition.lock()
    defer { condition.unlock() }
    return occurrences(of: Data(text.utf8), in: out)
  }

  /// Waits for the exit (killing the process after `deadline` seconds, status -1) and returns
  /// everything it wrote.
  public func finish(deadline: Double = 60) -> FeedpullProcess.Result {
    var status: Int32 = -1
    if exited.wait(timeout: .now() + deadline) == .timedOut {
      process.endOverrun(exited)
    } else {
      status = process.terminationStatus
    }
    condition.lock()
    while openPipes > 0 { condition.wait() }
    let result = FeedpullProcess.Result(
      status: status, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
    condition.unlock()
    return result
  }

  /// True when the process was ended by `signal` rather than exiting.
  public var wasKilledBySignal: Bool { process.terminationReason == .uncaughtSignal }

  private func read(_ handle: FileHandle, isStandardOutput: Bool) {
    Thread {
      while true {
        let chunk = handle.availableData
        self.condition.lock()
        if chunk.isEmpty {
          self.openPipes -= 1
        } else {
          if isStandardOutput { self.out.append(chunk) } else { self.err.append(chunk) }
        }
        self.condition.broadcast()
        self.condition.unlock()
        if isStandardOutput && !chunk.isEmpty { self.outputEvents?.signal() }
        if chunk.isEmpty { return }
      }
    }.start()
  }

  private func occurrences(of needle: Data, in data: Data) -> Int {
    var count = 0
    var start = data.startIndex
    while let range = data.range(of: needle, in: start..<data.endIndex) {
      count += 1
      start = range.upperBound
    }
    return count
  }
}
