import Foundation

/// Runs `feedpull` with its stdin from a file and its stdout to a file, and reports what it
/// cost: peak resident memory and wall time.
///
/// The peak comes from a small python3 parent that starts feedpull and reads
/// `RUSAGE_CHILDREN`. Measured here: a child that this (large) test process starts itself,
/// with `posix_spawn` or `fork`, reports the test process's own high-water mark (200+ MiB),
/// because Linux carries `maxrss` across `exec`; a child of the small python process carries
/// at most python's ~10 MiB.
public enum MeasuredProcess {
  public struct Result: Sendable {
    public var status: Int32
    public var peakMemoryBytes: Int
    public var seconds: Double
    public var stdout: String
  }

  private static let launcher = """
    import json, resource, subprocess, sys, time
    stdin_path, out_path, deadline = sys.argv[1], sys.argv[2], float(sys.argv[3])
    start = time.monotonic()
    with open(stdin_path, 'rb') as stdin, open(out_path, 'wb') as out:
        try:
            status = subprocess.run(sys.argv[4:], stdin=stdin, stdout=out,
                                    stderr=subprocess.DEVNULL, timeout=deadline).returncode
        except subprocess.TimeoutExpired:
            status = -9
    print(json.dumps({'status': status, 'seconds': time.monotonic() - start,
                      'maxrss_kib': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
    """

  public static func run(
    _ arguments: [String], stdinPath: String = "/dev/null", deadline: Double = 60
  ) throws -> Result {
    let outputPath = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedpull-measured-\(UUID().uuidString).out").path
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let python = try FeedpullProcess.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c", launcher, stdinPath, outputPath, "\(deadline)",
        FeedpullProcess.binary.path,
      ] + arguments,
      deadline: deadline + 10)
    struct Report: Decodable {
      var status: Int32
      var seconds: Double
      var maxrssKiB: Int
      enum CodingKeys: String, CodingKey {
        case status, seconds
        case maxrssKiB = "maxrss_kib"
      }
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(python.stdout.utf8))
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return Result(
      status: report.status, peakMemoryBytes: report.maxrssKiB * 1024, seconds: report.seconds,
      stdout: output)
  }
}
