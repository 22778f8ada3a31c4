import FeedPullSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 (only), on an ephemeral port, answering each path with its
/// `HTTPScript`. One thread accepts; each connection gets its own thread and may carry several
/// requests (keep-alive). Every request is recorded. It stops on `stop()` or when released.
public final class LoopbackHTTPServer: Sendable {
  public let port: UInt16
  private let core: ServerCore

  /// Starts listening; `routes` maps a request target (path and query) to its script.
  /// `responder`, when given, answers first (nil: fall back to `routes`): for a server whose
  /// answer depends on the request's headers or changes between requests.
  public init(
    routes: [String: HTTPScript],
    responder: (@Sendable (RecordedRequest) -> HTTPScript?)? = nil
  ) throws(ServerError) {
    core = try ServerCore(routes: routes, responder: responder)
    port = core.port
    let core = core
    let thread = Thread { core.acceptLoop() }
    thread.name = "loopback-http-accept"
    thread.start()
  }

  deinit {
    core.stop()
  }

  /// `http://127.0.0.1:<port><path>`.
  public func url(_ path: String) -> String {
    "http://127.0.0.1:\(port)\(path)"
  }

  /// Every request received so far, in arrival order.
  public var requests: [RecordedRequest] { core.requests }

  /// Connections accepted so far.
  public var connectionCount: Int { core.connectionCount }

  /// Signalled each time a `.mark` step is passed.
  public var marksPassed: EventLatch { core.markLatch }

  /// Signalled once per request received, for tests that wait until requests arrived.
  public var requestsReceived: EventLatch { core.requestLatch }

  /// The most responses that were being written at the same moment.
  public var peakConcurrentResponses: Int { core.peakConcurrentResponses }

  /// When the server passed the `.mark(name)` step (system uptime, seconds), if it did.
  public func mark(_ name: String) -> Double? { core.mark(name) }

  /// Closes the listening socket and wakes every connection; stalled ones close.
  public func stop() {
    core.stop()
  }
}

/// Why the server could not start.
public struct ServerError: Error, Sendable {
  public var message: String
}

/// The server's state, shared by its threads.
final class ServerCore: Sendable {
  private struct State {
    var requests: [RecordedRequest] = []
    var marks: [String: Double] = [:]
    /// Open connections' descriptors. Closed only with the state locked (and taken out of
    /// here first), so that `stop` never shuts down a number that another test's socket has
    /// taken meanwhile.
    var clients: Set<Int32> = []
    /// False once the accept loop closed the listening socket (with the state locked).
    var listening = true
    var connections = 0
    var activeResponses = 0
    var peakResponses = 0
    var stopped = false
  }

  let port: UInt16
  private let listener: Int32
  private let routes: [String: HTTPScript]
  private let responder: (@Sendable (RecordedRequest) -> HTTPScript?)?
  private let state = TSanVisibleMutex(State())
  /// Wakes connections waiting in a `.wait` or `.stallForever` step when the server stops.
  private let stopLatch = EventLatch()
  let requestLatch = EventLatch()
  let markLatch = EventLatch()

  init(
    routes: [String: HTTPScript], responder: (@Sendable (RecordedRequest) -> HTTPScript?)?
  ) throws(ServerError) {
    self.routes = routes
    self.responder = responder
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServerError(message: "socket: errno \(errno)") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    // Before any connection: the kernel stamps only what arrives once some socket asks, and a
    // request that came with its connection is read before `accept`'s socket could ask.
    setsockopt(fd, SOL_SOCKET, kernelTimestampOption, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 512) == 0 else {
      close(fd)
      throw ServerError(message: "bind/listen: errno \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
  }

  var requests: [RecordedRequest] { state.withLock { $0.requests } }
  var connectionCount: Int { state.withLock { $0.connections } }
  var peakConcurrentResponses: Int { state.withLock { $0.peakResponses } }
  func mark(_ name: String) -> Double? { state.withLock { $0.marks[name] } }

  func stop() {
    // shutdown, not close: the owning threads close their own fds. With the state locked,
    // because they close them with it locked: a number shut down here is still theirs. (It was
    // shut down after the lock was let go once, and a connection that closed meanwhile let
    // another test's new socket take its number, and lose its connection to this shutdown.)
    let stopping = state.withLock { state in
      guard !state.stopped else { return false }
      state.stopped = true
      if state.listening { shutdown(listener, Int32(SHUT_RDWR)) }
      for fd in state.clients { shutdown(fd, Int32(SHUT_RDWR)) }
      return true
    }
    if stopping { stopLatch.signal() }
  }

  private var isStopped: Bool { state.withLock { $0.stopped } }

  func acceptLoop() {
    while true {
      let fd = accept(listener, nil, nil)
      if fd < 0 {
        if errno == EINTR { continue }
        break
      }
      let admitted = state.withLock { state in
        guard !state.stopped else { return false }
        state.clients.insert(fd)
        state.connections += 1
        return true
      }
      guard admitted else {
        close(fd)
        break
      }
      let thread = Thread { [self] in
        serve(ClientConnection(fd: fd))
        state.withLock { state in
          state.clients.remove(fd)
          close(fd)
        }
      }
      thread.name = "loopback-http-connection"
      thread.start()
    }
    state.withLock { state in
      state.listening = false
      close(listener)
    }
  }

  /// Answers requests on one connection until either side closes it.
  private func serve(_ connection: ClientConnection) {
    while !isStopped, let request = connection.readRequest() {
      state.withLock { state in
        state.requests.append(request)
        state.activeResponses += 1
        state.peakResponses = max(state.peakResponses, state.activeResponses)
      }
      requestLatch.signal()
      defer { state.withLock { $0.activeResponses -= 1 } }
      let script =
        responder?(request) ?? routes[request.target] ?? routes[
          String(request.target.prefix { $0 != "?" })]
        ?? HTTPScript.ok("no such path", status: 404)
      let keepAlive = request.headers["connection"]?.lowercased() != "close"
      guard respond(script, on: connection, keepAlive: keepAlive), keepAlive else { return }
    }
  }

  /// Plays one script; true when the connection may carry another request.
  private func respond(_ script: HTTPScript, on connection: ClientConnection, keepAlive: Bool)
    -> Bool
  {
    var head = "HTTP/1.1 \(script.status) \(Self.reason(script.status))\r\n"
    for header in script.headers { head += "\(header.name): \(header.value)\r\n" }
    var chunked = false
    var reusable = keepAlive
    switch script.framing {
    case .contentLength: head += "Content-Length: \(script.sentBody.count)\r\n"
    case .declaredLength(let length):
      head += "Content-Length: \(length)\r\n"
      reusable = false
    case .chunked:
      head += "Transfer-Encoding: chunked\r\n"
      chunked = true
    case .chunkedWithoutLastChunk:
      head += "Transfer-Encoding: chunked\r\n"
      chunked = true
      reusable = false
    case .closeDelimited: reusable = false
    }
    head += reusable ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    if script.stepsBeforeHead {
      guard play(script.steps, on: connection, chunked: false) else { return false }
      return connection.send(Array(head.utf8)) && reusable
    }
    guard connection.send(Array(head.utf8)),
      play(script.steps, on: connection, chunked: chunked)
    else { return false }
    if case .chunked = script.framing {
      guard connection.send(Array("0\r\n\r\n".utf8)) else { return false }
    }
    return reusable
  }

  /// Plays body steps; false when the connection must close afterwards.
  private func play(_ steps: [HTTPScript.Step], on connection: ClientConnection, chunked: Bool)
    -> Bool
  {
    for step in steps {
      switch step {
      case .send(let bytes):
        guard connection.send(chunked ? Self.chunk(bytes) : bytes) else { return false }
      case .wait(let seconds):
        if stopLatch.wait(timeout: seconds) { return false }
      case .mark(let name):
        let now = ProcessInfo.processInfo.systemUptime
        state.withLock { $0.marks[name] = now }
        markLatch.signal()
      case .stallForever:
        stopLatch.wait(timeout: .infinity)
        return false
      case .reset:
        connection.reset()
        return false
      case .endless(let bytes):
        let piece = chunked ? Self.chunk(bytes) : bytes
        while !isStopped, connection.send(piece) {}
        return false
      }
    }
    return true
  }

  private static func chunk(_ bytes: [UInt8]) -> [UInt8] {
    Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
  }

  private static func reason(_ status: Int) -> String {
    [
      200: "OK", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
      307: "Temporary Redirect", 308: "Permanent Redirect", 404: "Not Found",
      410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error",
      503: "Service Unavailable",
    ][status] ?? "Status"
  }
}

/// `SO_TIMESTAMPNS` (and its control message's type, `SCM_TIMESTAMPNS`) on Linux: a macro Swift
/// does not import.
private let kernelTimestampOption: Int32 = 35

/// One accepted socket: reads requests, writes bytes.
private final class ClientConnection {
  private let fd: Int32
  private var buffer: [UInt8] = []

  /// The kernel's receive time of the bytes that began the request now in `buffer`.
  private var arrivedAt: Double?

  init(fd: Int32) {
    self.fd = fd
    var on: Int32 = 1
    setsockopt(fd, SOL_SOCKET, kernelTimestampOption, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  /// The next request's head, or nil when the client closed the connection.
  func readRequest() -> RecordedRequest? {
    let terminator: [UInt8] = [13, 10, 13, 10]
    while true {
      if let end = buffer.firstRange(of: terminator) {
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        var request = Self.parse(head)
        request?.arrivedAt = arrivedAt
        // Bytes left over belong to a request that arrived with this one.
        if buffer.isEmpty { arrivedAt = nil }
        return request
      }
      var bytes = [UInt8](repeating: 0, count: 16_384)
      let (count, stamp) = receive(into: &bytes)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      if buffer.isEmpty { arrivedAt = stamp }
      buffer += bytes[..<count]
    }
  }

  /// `recv` through `recvmsg`, with the kernel's receive time of the bytes read.
  private func receive(into bytes: inout [UInt8]) -> (Int, Double?) {
    // A cmsghdr (length, level, type: 16 bytes on 64-bit Linux) and a timespec, with room.
    var control = [UInt64](repeating: 0, count: 8)
    let header = MemoryLayout<cmsghdr>.size
    return bytes.withUnsafeMutableBytes { data in
      control.withUnsafeMutableBytes { controlBytes in
        var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
        return withUnsafeMutablePointer(to: &vector) { vectorPointer in
          var message = msghdr()
          message.msg_iov = vectorPointer
          message.msg_iovlen = 1
          message.msg_control = controlBytes.baseAddress
          message.msg_controllen = controlBytes.count
          let count = recvmsg(fd, &message, 0)
          guard count > 0, message.msg_controllen >= header + MemoryLayout<timespec>.size
          else { return (count, nil) }
          let cmsg = controlBytes.load(as: cmsghdr.self)
          guard cmsg.cmsg_level == SOL_SOCKET, cmsg.cmsg_type == kernelTimestampOption else {
            return (count, nil)
          }
          let time = controlBytes.loadUnaligned(fromByteOffset: header, as: timespec.self)
          return (count, Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
        }
      }
    }
  }

  private static func parse(_ head: String) -> RecordedRequest? {
    let lines = head.components(separatedBy: "\r\n")
    let parts = lines.first?.split(separator: " ") ?? []
    guard parts.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] =
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return RecordedRequest(method: String(parts[0]), target: String(parts[1]), headers: headers)
  }

  /// Writes everything; false when the client is gone. MSG_NOSIGNAL: no SIGPIPE for the tests.
  func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Makes the coming close send a TCP RST instead of a FIN.
  func reset() {
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
  }
}
