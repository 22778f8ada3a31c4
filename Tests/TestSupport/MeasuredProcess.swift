import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `feedpull` with its stdin from a file and its stdout to a file, and reports what it
/// cost: peak resident memory and CPU time from `wait4`, which Foundation's `Process` does not
/// give. For the hostile-input tests' "bounded memory and time".
public enum MeasuredProcess {
  public struct Result: Sendable {
    public var status: Int32
    public var peakMemoryBytes: Int
    public var seconds: Double
    public var stdout: String
  }

  public static func run(
    _ arguments: [String], stdinPath: String = "/dev/null", deadline: Double = 60
  ) throws -> Result {
    let outputPath = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-measured-\(UUID().uuidString).out").path
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([FeedpullProcess.binary.path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let started = Date()
    guard let path = argv[0], posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else {
      throw CocoaError(.executableLoad)
    }
    // A watchdog ends a hang; the hang then shows as a signal status.
    let finished = DispatchSemaphore(value: 0)
    let childPID = pid
    DispatchQueue.global().async {
      if finished.wait(timeout: .now() + deadline) == .timedOut { kill(childPID, SIGKILL) }
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    finished.signal()
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -(status & 0x7F)
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return Result(
      status: exitStatus, peakMemoryBytes: Int(usage.ru_maxrss) * 1024,
      seconds: Date().timeIntervalSince(started), stdout: output)
  }
}
