#if canImport(Glibc)
  import Glibc
#endif

/// Writes whole buffers to a file descriptor, retrying short writes and EINTR.
struct FileDescriptorOutput: Sendable {
  let fileDescriptor: Int32

  /// False when the reader has gone away (EPIPE) or the descriptor failed.
  @discardableResult
  func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { write($0) }
  }

  @discardableResult
  func write(_ buffer: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < buffer.count {
      let written = Glibc.write(
        fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}
