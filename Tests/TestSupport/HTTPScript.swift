import Foundation

/// What the loopback server answers on one path, as data (curl's tests as data: the canned reply
/// is a value, not code). A script is a status, headers, a framing and a list of body steps.
public struct HTTPScript: Sendable {
  /// How the body's end is signalled.
  public enum Framing: Sendable {
    /// `Content-Length` with the sum of the `send` steps.
    case contentLength
    /// `Content-Length` with this value, whatever is actually sent (e.g. larger than the body).
    case declaredLength(Int)
    /// `Transfer-Encoding: chunked`, one chunk per `send` step, then the last chunk.
    case chunked
    /// `Transfer-Encoding: chunked` without the terminating zero-length chunk; the connection
    /// closes instead.
    case chunkedWithoutLastChunk
    /// Neither: the body ends when the server closes the connection.
    case closeDelimited
  }

  /// One step of the body.
  public enum Step: Sendable {
    /// Write these bytes (one chunk when chunked).
    case send([UInt8])
    /// Wait this many seconds (ends early when the server stops).
    case wait(Double)
    /// Note the time under this name, for latency measurements (`LoopbackHTTPServer.mark`).
    case mark(String)
    /// Send nothing more and keep the connection open until the server stops.
    case stallForever
    /// Close the connection with a TCP reset (SO_LINGER 0).
    case reset
    /// Send these bytes over and over until the client goes away or the server stops.
    case endless([UInt8])
  }

  public var status: Int
  public var headers: [(name: String, value: String)]
  public var framing: Framing
  public var steps: [Step]
  /// Runs the steps before anything is written, so that `.wait` delays the status line and
  /// `.stallForever` makes a server that accepts and never answers.
  public var stepsBeforeHead = false

  public init(
    status: Int = 200, headers: [(name: String, value: String)] = [],
    framing: Framing = .contentLength, steps: [Step] = []
  ) {
    self.status = status
    self.headers = headers
    self.framing = framing
    self.steps = steps
  }

  /// A complete response with `body` sent in one piece.
  public static func ok(
    _ body: String, headers: [(name: String, value: String)] = [], status: Int = 200
  ) -> HTTPScript {
    HTTPScript(status: status, headers: headers, steps: [.send(Array(body.utf8))])
  }

  /// A server that reads the request and never answers.
  public static let silent = HTTPScript(steps: [.stallForever], beforeHead: true)

  private init(steps: [Step], beforeHead: Bool) {
    self.init(steps: steps)
    stepsBeforeHead = beforeHead
  }

  /// A redirect to `location` with a short HTML body.
  public static func redirect(_ status: Int, to location: String) -> HTTPScript {
    HTTPScript(
      status: status, headers: [("Location", location), ("Content-Type", "text/html")],
      steps: [.send(Array("<a href=\"\(location)\">moved</a>".utf8))])
  }

  /// The bytes of every `send` step.
  var sentBody: [UInt8] {
    steps.flatMap { step -> [UInt8] in
      if case .send(let bytes) = step { return bytes }
      return []
    }
  }
}

/// One request the server received, for assertions on what the client sent.
public struct RecordedRequest: Sendable {
  public var method: String
  public var target: String
  /// Header fields by lower-cased name (the last one wins).
  public var headers: [String: String]
  /// When the server's thread had read its head (system uptime, seconds).
  public var receivedAt: Double = ProcessInfo.processInfo.systemUptime
  /// When the kernel received the head's bytes (`SO_TIMESTAMPNS`, seconds since 1970): what a
  /// host sees of request spacing, free of the delay before the server's thread, which shares
  /// its process with every test running beside it, gets to read them. Nil if the kernel gave
  /// no timestamp.
  public var arrivedAt: Double?
}
