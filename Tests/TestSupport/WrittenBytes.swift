import FeedPull
import Foundation

/// The bytes a writer made on `descriptor` wrote, read back from a temporary file: the writers
/// write to a file descriptor, and their tests compare what reached it.
public func bytesWritten<Sink>(
  by make: (Int32) -> Sink, flush: (Sink) -> Void, _ body: (Sink) -> Void
) throws -> [UInt8] {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("feedpull-written-\(UUID().uuidString)").path
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  defer {
    close(descriptor)
    unlink(path)
  }
  let sink = make(descriptor)
  body(sink)
  flush(sink)
  return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The bytes a `JSONLinesWriter` wrote while `body` gave it records, flushed once at the end.
public func jsonLinesWritten(_ body: (JSONLinesWriter) -> Void) throws -> [UInt8] {
  try bytesWritten(by: { JSONLinesWriter(fileDescriptor: $0) }, flush: { $0.flush() }, body)
}
