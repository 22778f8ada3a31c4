import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a local file or standard input into its document, chunk by chunk, with the same
/// limits as a transfer. Files are read by feedpull itself, never through curl (a redirect to
/// `file:` must stay impossible there).
enum LocalSourceReader {
  /// Large enough that a read costs little next to parsing it; small enough to stay flat.
  static let chunkSize = 256 * 1024

  /// Reads to the end and completes `document`. Blocks the calling thread.
  ///
  /// - Parameter deadline: `CLOCK_MONOTONIC` nanoseconds by which the source must have ended,
  ///   or it ends `timeout` (nil: no limit). A regular file always ends; a device, a FIFO or
  ///   standard input may never (`/dev/zero`, a pipe nobody writes to), so the time limit
  ///   holds for local sources as it does for transfers. Waiting for bytes is a `poll` bounded
  ///   by the time left, never a read that could block past it.
  static func read(
    _ location: SourceOrigin, into document: DocumentPull,
    flowControl: (any FlowControlledSink)? = nil, deadline: Int64? = nil,
    isCancelled: () -> Bool = { false }
  ) {
    let fileDescriptor: Int32
    switch location {
    // A local document is read as fast as it can be parsed: preparing the next chunk on
    // another core while this one is parsed costs its items nothing but a chunk's delay.
    case .standardInput:
      fileDescriptor = STDIN_FILENO
      document.begin(documentURL: nil, charset: nil, preparesAhead: true)
    case .file(let path):
      // Non-blocking open: opening a FIFO would otherwise wait, without limit, for a writer.
      fileDescriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      guard fileDescriptor >= 0 else {
        document.complete(ioError(path: path))
        return
      }
      _ = fcntl(fileDescriptor, F_SETFL, fcntl(fileDescriptor, F_GETFL) & ~O_NONBLOCK)
      document.begin(documentURL: fileURL(forPath: path), charset: nil, preparesAhead: true)
    case .http, .unsupported:
      preconditionFailure("not a local source")
    }
    defer { if fileDescriptor != STDIN_FILENO { close(fileDescriptor) } }
    let mayWait = !isRegularFile(fileDescriptor)

    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      if isCancelled() {
        document.complete(PullError(kind: .cancelled, message: "cancelled"))
        return
      }
      if let flowControl, flowControl.isBehind {
        let caughtUp = DispatchSemaphore(value: 0)
        flowControl.whenCaughtUp { caughtUp.signal() }
        caughtUp.wait()
      }
      if let deadline {
        let left = deadline - DocumentPull.monotonicNanoseconds()
        if left <= 0 || (mayWait && !waitForBytes(fileDescriptor, nanoseconds: left)) {
          document.complete(
            PullError(kind: .timeout, message: "the source did not end within the time limit"))
          return
        }
      }
      let count = Glibc.read(fileDescriptor, buffer.baseAddress, chunkSize)
      if count < 0 {
        if errno == EINTR { continue }
        document.complete(ioError(path: location == .standardInput ? "-" : nil))
        return
      }
      if count == 0 { break }
      let withinLimit = document.consume(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
      if !withinLimit {
        document.complete(PullError(kind: .tooLarge, message: "body larger than the limit"))
        return
      }
      if document.parserStopped { break }
      // The next read would wait (a pipe with nothing more yet): the chunk prepared ahead is
      // parsed first, so that its items do not wait with it.
      if !hasBytesReady(fileDescriptor) { document.catchUp() }
    }
    document.complete(nil)
  }

  private static func isRegularFile(_ fileDescriptor: Int32) -> Bool {
    var status = stat()
    return fstat(fileDescriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// Waits until `fileDescriptor` has bytes (or its end, or an error) for at most
  /// `nanoseconds`; false when the time ran out first.
  private static func waitForBytes(_ fileDescriptor: Int32, nanoseconds: Int64) -> Bool {
    var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    var left = nanoseconds
    while left > 0 {
      let milliseconds = Int32(clamping: (left + 999_999) / 1_000_000)
      let started = DocumentPull.monotonicNanoseconds()
      let ready = poll(&request, 1, milliseconds)
      if ready > 0 { return true }
      if ready < 0 && errno != EINTR { return true }  // the read reports the error
      left -= DocumentPull.monotonicNanoseconds() - started
    }
    return false
  }

  private static func hasBytesReady(_ fileDescriptor: Int32) -> Bool {
    var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    return poll(&request, 1, 0) == 1
  }

  private static func ioError(path: String?) -> PullError {
    let reason = String(cString: strerror(errno))
    return PullError(kind: .io, message: path.map { "\($0): \(reason)" } ?? reason)
  }

  /// The absolute `file://` URL of a path, percent-encoded, for resolving relative links.
  static func fileURL(forPath path: String) -> String {
    var absolute = path
    if !path.hasPrefix("/") {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      if getcwd(&buffer, buffer.count) != nil {
        let directory = String(
          decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        absolute = directory == "/" ? "/" + path : directory + "/" + path
      }
    }
    var url = "file://"
    for byte in absolute.utf8 {
      if byte > 0x20 && byte < 0x7F && !"%?#[] \"<>\\^`{|}".utf8.contains(byte) {
        url.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        url += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return url
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
