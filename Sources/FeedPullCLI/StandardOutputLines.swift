import FeedPull
import Subscriptions

#if canImport(Glibc)
  import Glibc
#endif

/// Lines for standard output gathered into writes of 64 KiB (`state list`, `state export`): a
/// `write` a line was a quarter of listing a million sources. A write that fails (a closed pipe,
/// a full disk) throws, so that the command stops with a message and exit status 1.
struct StandardOutputLines {
  private let output = FileDescriptorOutput(fileDescriptor: STDOUT_FILENO)
  private var pending: [UInt8] = []

  init() { pending.reserveCapacity(1 << 16) }

  /// Adds `line` and a line feed; writes when 64 KiB are waiting.
  mutating func add(_ line: String) throws(StoreError) {
    pending.append(contentsOf: line.utf8)
    pending.append(0x0A)
    if pending.count >= 1 << 16 { try flush() }
  }

  /// Writes what is waiting.
  mutating func flush() throws(StoreError) {
    defer { pending.removeAll(keepingCapacity: true) }
    guard pending.isEmpty || output.write(pending) else {
      throw StoreError(message: "cannot write to standard output: \(output.failureMessage ?? "")")
    }
  }
}
