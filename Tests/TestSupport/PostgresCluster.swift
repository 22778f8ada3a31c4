import Dispatch
import FeedPullSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A throwaway PostgreSQL server for tests: one cluster per test process, made with Debian's
/// `initdb` in a temporary directory, listening only on a Unix socket in that directory (no
/// TCP port, so it meets no other server), started on first use and stopped when the process
/// exits. PostgreSQL refuses to run as root, so under root (CI) it runs as the `postgres` user
/// in a directory that user owns. Each test asks for its own database (`freshDatabase`).
public final class PostgresCluster: Sendable {
  /// The directory holding the data, the socket and the server log.
  public let directory: String
  private let binaries: String
  private let runAs: String?

  private static let shared = TSanVisibleMutex<Result<PostgresCluster, PostgresClusterError>?>(nil)
  private static let counter = TSanVisibleMutex(0)

  /// The process's cluster, started on first use. Throws (the test fails, with the reason)
  /// when PostgreSQL is not installed or will not start: never a silent pass.
  public static func start() throws(PostgresClusterError) -> PostgresCluster {
    let result = shared.withLock { cached in
      if let cached { return cached }
      let made = Result { () throws(PostgresClusterError) in try PostgresCluster() }
      cached = made
      return made
    }
    return try result.get()
  }

  /// A cluster of the caller's own, for a test that stops and starts the server (the shared one
  /// must stay up for the tests running beside it). Stopped when the process exits.
  public static func startPrivate() throws(PostgresClusterError) -> PostgresCluster {
    try PostgresCluster()
  }

  private init() throws(PostgresClusterError) {
    let versions =
      (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    guard let version = versions.sorted(by: { (Int($0) ?? 0) < (Int($1) ?? 0) }).last,
      FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/initdb")
    else {
      throw PostgresClusterError(
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
          + "apt-get install postgresql")
    }
    binaries = "/usr/lib/postgresql/\(version)/bin"
    runAs = getuid() == 0 ? "postgres" : nil
    var template = Array("/tmp/feedpull-pg-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw PostgresClusterError("cannot make a temporary directory for PostgreSQL")
    }
    directory = String(cString: made)
    if let runAs {
      guard let user = getpwnam(runAs) else {
        throw PostgresClusterError(
          "running as root, and there is no \(runAs) user to run PostgreSQL")
      }
      chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
    }
    try run(
      "initdb",
      [
        "-D", "\(directory)/data", "-U", "postgres", "--auth=trust", "-E", "UTF8",
        "--locale=C", "--no-sync",
      ])
    try startServer()
    let stopCommand = command("pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "stop"])
    // Stops the server when the test process ends, however it ends: a watcher outlives it by
    // at most a second, and removes the directory.
    // In a session of its own, so that killing the test's process group does not kill it.
    _ = try ChildProcess.spawn(
      [
        "/usr/bin/setsid", "/bin/sh", "-c",
        "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; "
          + stopCommand.map(Self.quoted).joined(separator: " ")
          + " >/dev/null 2>&1; rm -rf \(Self.quoted(directory))",
      ], outputPath: "/dev/null")
  }

  /// A new, empty database on the cluster; its libpq URI.
  public func freshDatabase() throws(PostgresClusterError) -> String {
    let number = Self.counter.withLock { counter in
      counter += 1
      return counter
    }
    let name = "feedpull_\(getpid())_\(number)"
    try run("createdb", ["-h", directory, "-U", "postgres", name])
    return uri(database: name)
  }

  /// The libpq URI of `database` on this cluster (its socket directory as the host).
  public func uri(database: String) -> String {
    "postgresql:///\(database)?host=\(directory)&user=postgres"
  }

  /// Stops the server (fast: open connections are cut, as in a crash or a restart).
  public func stopServer() throws(PostgresClusterError) {
    try run("pg_ctl", ["-D", "\(directory)/data", "-m", "fast", "-w", "stop"])
  }

  /// Starts the server and waits until it accepts connections.
  public func startServer() throws(PostgresClusterError) {
    try run(
      "pg_ctl",
      [
        "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-o",
        "-c listen_addresses='' -k \(directory) -c fsync=off -c full_page_writes=off "
          + "-c synchronous_commit=off -c max_connections=200",
        "start",
      ])
  }

  /// Runs SQL through `psql` on `database` and returns its unaligned output.
  public func query(_ sql: String, database: String) throws(PostgresClusterError) -> String {
    try run("psql", ["-h", directory, "-U", "postgres", "-At", "-d", database, "-c", sql])
  }

  private func command(_ tool: String, _ arguments: [String]) -> [String] {
    // From /tmp: the postgres user may not enter the test's own directory (a checkout under
    // /root), and initdb fails where it cannot read its working directory.
    let direct =
      ["/bin/sh", "-c", "cd /tmp && exec \"$@\"", "sh", "\(binaries)/\(tool)"] + arguments
    guard let runAs else { return direct }
    return ["/usr/sbin/runuser", "-u", runAs, "--"] + direct
  }

  @discardableResult
  private func run(_ tool: String, _ arguments: [String]) throws(PostgresClusterError) -> String {
    let words = command(tool, arguments)
    // A file, not a pipe: the server `pg_ctl` starts outlives it and must not hold our reader.
    let outputPath = "\(directory)/\(tool)-\(UUID().uuidString).out"
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let pid = try ChildProcess.spawn(words, outputPath: outputPath)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    let text = String(
      decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
    guard status == 0 else {
      throw PostgresClusterError("\(tool) failed (wait status \(status)): \(text)")
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func quoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

/// Why the test cluster could not be made or used; the test that needed it fails with this.
public struct PostgresClusterError: Error, CustomStringConvertible {
  /// What went wrong, with the tool's own output: what a failing test shows.
  public var description: String
  init(_ description: String) { self.description = description }
}

/// Starts programs with `posix_spawn`, every descriptor above stderr closed in the child:
/// Foundation's `Process` would hand the server (which outlives `pg_ctl`) the descriptors by
/// which it and the tests running beside it notice their children's exits, and those would
/// then never be noticed.
enum ChildProcess {
  private typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

  static func spawn(_ words: [String], outputPath: String) throws(PostgresClusterError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // glibc 2.34+ (Debian 12 has 2.36); not in the headers Swift imports, so looked up.
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
      throw PostgresClusterError("this C library cannot close descriptors in a spawned child")
    }
    _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    var arguments = words.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, words[0], &actions, nil, &arguments, environ)
    guard code == 0 else {
      throw PostgresClusterError("cannot run \(words[0]): \(String(cString: strerror(code)))")
    }
    return pid
  }
}
