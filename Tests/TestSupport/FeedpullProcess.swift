import Foundation

/// Runs the built `feedpull` binary, as a user would, for end-to-end tests.
public enum FeedpullProcess {
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// stdout's JSON Lines, parsed.
    public var records: [[String: any Sendable]] {
      stdout.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: any Sendable]
      }
    }
  }

  /// The binary beside the test bundle (`swift build` puts every product in one folder).
  public static var binary: URL {
    var directory = Bundle.main.bundleURL
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent("feedpull")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    return RepositoryPaths.root.appendingPathComponent(".build/debug/feedpull")
  }

  /// Runs `feedpull arguments…` with `input` on stdin; kills it after `deadline` seconds
  /// (a hang is a failure, reported as status -1).
  public static func run(
    _ arguments: [String], input: Data? = nil, currentDirectory: URL? = nil,
    deadline: TimeInterval = 60
  ) throws -> Result {
    try run(
      executable: binary, arguments, input: input, currentDirectory: currentDirectory,
      deadline: deadline)
  }

  /// Runs another program the same way (for a measuring wrapper around feedpull).
  public static func run(
    executable: URL, _ arguments: [String], input: Data? = nil, currentDirectory: URL? = nil,
    deadline: TimeInterval = 60
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    let writer = Thread {
      if let input { stdin.fileHandleForWriting.write(input) }
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let output = OutputCollector(stdout.fileHandleForReading, stderr.fileHandleForReading)
    var status: Int32 = -1
    if exited.wait(timeout: .now() + deadline) == .timedOut {
      process.endOverrun(exited)
    } else {
      status = process.terminationStatus
    }
    let (out, err) = output.wait()
    return Result(
      status: status, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }
}

/// Drains both pipes on their own threads so a chatty child never blocks on a full pipe.
private final class OutputCollector: @unchecked Sendable {
  private var out = Data()
  private var err = Data()
  private let group = DispatchGroup()

  init(_ stdout: FileHandle, _ stderr: FileHandle) {
    group.enter()
    group.enter()
    Thread {
      self.out = stdout.readDataToEndOfFile()
      self.group.leave()
    }.start()
    Thread {
      self.err = stderr.readDataToEndOfFile()
      self.group.leave()
    }.start()
  }

  func wait() -> (Data, Data) {
    group.wait()
    return (out, err)
  }
}

extension Process {
  /// Ends a process that overran its deadline: SIGTERM, then SIGKILL when it has not exited
  /// `grace` seconds later (a process caught in a loop may never act on SIGTERM, and a test
  /// must fail rather than wait for it forever). Returns once `exited` is signalled.
  func endOverrun(_ exited: DispatchSemaphore, grace: Double = 10) {
    terminate()
    if exited.wait(timeout: .now() + grace) == .timedOut {
      kill(processIdentifier, SIGKILL)
      exited.wait()
    }
  }
}
