import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private nginx serving a directory over HTTPS with HTTP/2 on 127.0.0.1, for the tests of
/// multiplexing and connection reuse: started in the foreground with its own configuration and
/// prefix in a temporary directory, stopped by its PID. Its access log names, for each request,
/// the connection that carried it, so a test counts connections the way the server saw them.
public final class NginxServer: Sendable {
  /// One access-log line.
  public struct LoggedRequest: Sendable, Equatable {
    /// nginx's connection serial number.
    public var connection: Int
    /// `HTTP/2.0` or `HTTP/1.1`.
    public var httpProtocol: String
    /// `r` when the TLS session was resumed, `.` when it was a full handshake.
    public var sessionReused: String
    public var path: String
  }

  public let port: UInt16
  /// The directory it serves: files written here are served at `/<name>`.
  public let root: String
  private let prefix: String
  private let process: Process

  /// Starts nginx on 127.0.0.1 with `certificate`, speaking HTTP/2 (ALPN) unless `http2` is
  /// false; `keepAlive` false closes every connection after one request. Throws when nginx is
  /// not installed or does not start.
  public init(certificate: TestCertificates.Pair, http2: Bool = true, keepAlive: Bool = true)
    throws(TestToolError)
  {
    prefix = try TestTool.temporaryDirectory("feedpull-nginx")
    root = prefix + "/root"
    try TestTool.run("mkdir", ["-p", root, prefix + "/tmp"])
    let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let nginx else {
      throw TestToolError("nginx is not installed: apt-get install nginx-light")
    }
    var lastError = ""
    // The port is found free, then handed to nginx: another process may take it in between,
    // so a failed start is tried again on a new port.
    for _ in 0..<5 {
      let port = try Self.freePort()
      let configuration = Self.configuration(
        prefix: prefix, root: root, port: port, certificate: certificate, http2: http2,
        keepAlive: keepAlive)
      let file = prefix + "/nginx.conf"
      guard FileManager.default.createFile(atPath: file, contents: Data(configuration.utf8)) else {
        throw TestToolError("cannot write \(file)")
      }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: nginx)
      process.arguments = [
        "-p", prefix, "-c", file, "-e", prefix + "/error.log", "-g", "daemon off;",
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      do {
        try process.run()
      } catch {
        throw TestToolError("cannot start nginx: \(error)")
      }
      if Self.waitForListener(port: port, process: process, timeout: 20) {
        self.port = port
        self.process = process
        return
      }
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      lastError = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
    }
    throw TestToolError("nginx did not start: \(lastError)")
  }

  deinit { stop() }

  /// `https://127.0.0.1:PORT<path>`.
  public func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

  /// Writes `contents` to `name` under the root.
  public func serve(_ name: String, _ contents: String) throws(TestToolError) {
    guard
      FileManager.default.createFile(atPath: root + "/" + name, contents: Data(contents.utf8))
    else { throw TestToolError("cannot write \(name)") }
  }

  /// The access log so far (nginx writes a line once a response is done).
  public var log: [LoggedRequest] {
    let text = (try? String(contentsOfFile: prefix + "/access.log", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count == 4, let connection = Int(fields[0]) else { return nil }
      return LoggedRequest(
        connection: connection, httpProtocol: String(fields[1]),
        sessionReused: String(fields[2]), path: String(fields[3]))
    }
  }

  /// Stops nginx (SIGQUIT: the master ends its worker gracefully) and waits for it.
  public func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGQUIT)
    process.waitUntilExit()
  }

  private static func configuration(
    prefix: String, root: String, port: UInt16, certificate: TestCertificates.Pair,
    http2: Bool, keepAlive: Bool
  ) -> String {
    // As root, nginx's worker would run as `nobody`, who cannot read a private temp directory.
    let user = getuid() == 0 ? "user root;" : ""
    return """
      worker_processes 1;
      \(user)
      pid \(prefix)/nginx.pid;
      events { worker_connections 1024; }
      http {
        log_format connections '$connection $server_protocol $ssl_session_reused $uri';
        access_log \(prefix)/access.log connections;
        client_body_temp_path \(prefix)/tmp/body;
        proxy_temp_path \(prefix)/tmp/proxy;
        fastcgi_temp_path \(prefix)/tmp/fastcgi;
        uwsgi_temp_path \(prefix)/tmp/uwsgi;
        scgi_temp_path \(prefix)/tmp/scgi;
        types { application/rss+xml xml; }
        keepalive_timeout \(keepAlive ? "65s" : "0");
        keepalive_requests 100000;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:tls:1m;
        server {
          listen 127.0.0.1:\(port) ssl\(http2 ? " http2" : "");
          ssl_certificate \(certificate.certificate);
          ssl_certificate_key \(certificate.key);
          root \(root);
        }
      }
      """
  }

  private static func freePort() throws(TestToolError) -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestToolError("socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
      }
    }
    guard bound else { throw TestToolError("cannot find a free port") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// Waits until something accepts on 127.0.0.1:`port`, or nginx exits, or `timeout` passes.
  private static func waitForListener(port: UInt16, process: Process, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    let latch = EventLatch()
    while Date() < deadline && process.isRunning {
      if let fd = LoopbackSocket.connect(to: port) {
        close(fd)
        return true
      }
      // Not a sleep as synchronisation: a bounded pause between connection attempts, which
      // nginx gives no other signal for.
      latch.wait(for: 1, timeout: 0.02)
    }
    return false
  }
}
