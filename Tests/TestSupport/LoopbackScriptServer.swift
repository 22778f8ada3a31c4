import FeedPullSupport
import Foundation

/// An HTTP/1.1 server on 127.0.0.1 or 127.0.0.2, with TLS when given a certificate: Python's
/// `http.server` and `ssl` (Tests/Scripts/loopback_server.py), for what `LoopbackHTTPServer`
/// does not do. Every request it receives is recorded. It stops on `stop()`, when released, or
/// when the test process ends (it reads its standard input until it closes).
public final class LoopbackScriptServer: Sendable {
  /// One route's answer.
  public struct Route: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// One extra header of this many bytes (a header too large for a client).
    public var headerBytes: Int

    public init(
      status: Int = 200, headers: [(String, String)] = [], body: [UInt8], headerBytes: Int = 0
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.headerBytes = headerBytes
    }

    /// A 200 with `body` as text and `contentType`.
    public static func ok(_ body: String, contentType: String = "application/rss+xml") -> Route {
      Route(headers: [("Content-Type", contentType)], body: Array(body.utf8))
    }

    /// A redirect to `location`.
    public static func redirect(_ status: Int = 302, to location: String) -> Route {
      Route(status: status, headers: [("Location", location)], body: [])
    }
  }

  /// A request as the server received it.
  public struct Request: Sendable {
    public var path: String
    /// Header names lower-cased.
    public var headers: [String: String]
  }

  /// The address it listens on.
  public let address: String
  public let port: UInt16
  /// True when it speaks TLS.
  public let isTLS: Bool
  private let process: Process
  private let input: FileHandle
  private let recorded = TSanVisibleMutex<[Request]>([])
  private let received = EventLatch()

  /// Starts the server on `address` (127.0.0.1 or 127.0.0.2) with `routes` (by path); TLS
  /// with `certificate` when given.
  public init(
    address: String = "127.0.0.1", routes: [String: Route],
    certificate: TestCertificates.Pair? = nil
  ) throws(TestToolError) {
    self.address = address
    isTLS = certificate != nil
    let directory = try TestTool.temporaryDirectory("feedpull-server")
    let routesFile = directory + "/routes.json"
    var table: [String: Any] = [:]
    for (path, route) in routes {
      table[path] = [
        "status": route.status, "headers": route.headers.map { [$0.0, $0.1] },
        "body_hex": route.body.map { String(format: "%02x", $0) }.joined(),
        "header_bytes": route.headerBytes,
      ]
    }
    guard let json = try? JSONSerialization.data(withJSONObject: table),
      FileManager.default.createFile(atPath: routesFile, contents: json)
    else { throw TestToolError("cannot write \(routesFile)") }
    var arguments = [
      RepositoryPaths.root.appendingPathComponent("Tests/Scripts/loopback_server.py").path,
      "--address", address,
    ]
    if let certificate {
      arguments += ["--cert", certificate.certificate, "--key", certificate.key]
    }
    arguments.append(routesFile)

    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let stdout = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardInput = stdin
    process.standardError = FileHandle.nullDevice
    input = stdin.fileHandleForWriting
    do {
      try process.run()
    } catch {
      throw TestToolError("cannot start python3: \(error)")
    }
    let portLine = PortLine()
    let recorded = recorded
    let received = received
    let reader = Thread {
      var pending = Data()
      let handle = stdout.fileHandleForReading
      while case let chunk = handle.availableData, !chunk.isEmpty {
        pending.append(chunk)
        while let newline = pending.firstIndex(of: 10) {
          let line = String(decoding: pending[..<newline], as: UTF8.self)
          pending.removeSubrange(...newline)
          if line.hasPrefix("PORT ") {
            portLine.set(UInt16(line.dropFirst(5)) ?? 0)
          } else if let request = Self.request(fromLine: line) {
            recorded.withLock { $0.append(request) }
            received.signal()
          }
        }
      }
      portLine.set(0)
    }
    reader.start()
    guard let port = portLine.wait(timeout: 20), port > 0 else {
      process.terminate()
      throw TestToolError("the python3 test server did not start (is python3 installed?)")
    }
    self.port = port
  }

  deinit { stop() }

  /// `http(s)://ADDRESS:PORT<path>`.
  public func url(_ path: String) -> String {
    "\(isTLS ? "https" : "http")://\(address):\(port)\(path)"
  }

  /// Every request received so far, in arrival order.
  public var requests: [Request] { recorded.withLock { $0 } }

  /// Signalled once per request received.
  public var requestsReceived: EventLatch { received }

  /// Stops the server and waits for it to exit.
  public func stop() {
    try? input.close()
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }

  private static func request(fromLine line: String) -> Request? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let path = object["path"] as? String, let pairs = object["headers"] as? [[String]]
    else { return nil }
    var headers: [String: String] = [:]
    for pair in pairs where pair.count == 2 { headers[pair[0].lowercased()] = pair[1] }
    return Request(path: path, headers: headers)
  }
}

/// The port the server printed, handed from the reader thread to `init`.
private final class PortLine: Sendable {
  private let value = TSanVisibleMutex<UInt16?>(nil)
  private let ready = EventLatch()

  func set(_ port: UInt16) {
    let first = value.withLock { stored in
      guard stored == nil else { return false }
      stored = port
      return true
    }
    if first { ready.signal() }
  }

  func wait(timeout: Double) -> UInt16? {
    ready.wait(timeout: timeout)
    return value.withLock { $0 }
  }
}
