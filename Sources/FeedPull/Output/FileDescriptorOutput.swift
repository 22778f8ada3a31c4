import FeedPullSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Writes whole buffers to a file descriptor, retrying short writes and EINTR, and remembers the
/// first failure (a full disk, a reader that closed its pipe): after it, output is dropped and
/// `onFailure` has been told once, so that the run can stop with a message instead of carrying on
/// silently.
public final class FileDescriptorOutput: Sendable {
  /// Where the bytes go.
  public let fileDescriptor: Int32
  private let failure = TSanVisibleMutex<String?>(nil)
  private let onFailure: (@Sendable (String) -> Void)?

  /// - Parameter onFailure: told once, with `strerror`'s text, when a write fails.
  public init(fileDescriptor: Int32, onFailure: (@Sendable (String) -> Void)? = nil) {
    self.fileDescriptor = fileDescriptor
    self.onFailure = onFailure
  }

  /// Why writing failed (`strerror`), once it has.
  public var failureMessage: String? { failure.withLock { $0 } }

  /// False when this or an earlier write failed.
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { write($0) }
  }

  /// The same for bytes in place.
  @discardableResult
  public func write(_ buffer: UnsafeRawBufferPointer) -> Bool {
    guard failureMessage == nil else { return false }
    var offset = 0
    while offset < buffer.count {
      let written = Glibc.write(
        fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        fail(String(cString: strerror(errno)))
        return false
      }
      offset += written
    }
    return true
  }

  private func fail(_ message: String) {
    let first = failure.withLock { stored -> Bool in
      guard stored == nil else { return false }
      stored = message
      return true
    }
    if first { onFailure?(message) }
  }
}
