import FeedPullSupport
import Synchronization

/// Writes records as JSON Lines (docs/format.md) to a file descriptor (standard output for the
/// CLI). Records are encoded into one buffer and written at each `flush`, so a parsed chunk
/// with a hundred items costs one `write`, not a hundred.
public final class JSONLinesWriter: PullRecordSink {
  private let output: FileDescriptorOutput
  private let pending = TSanVisibleMutex(JSONLineBuffer())
  /// Past this, a buffer is written out without waiting for the next flush.
  private let highWater = 1 << 16

  /// - Parameter onWriteFailure: called once, with `strerror`'s text, when a write fails (a full
  ///   disk, a closed pipe); output after it is dropped.
  public init(
    fileDescriptor: Int32, onWriteFailure: (@Sendable (String) -> Void)? = nil
  ) {
    output = FileDescriptorOutput(fileDescriptor: fileDescriptor, onFailure: onWriteFailure)
  }

  /// True once a write failed (the reader closed the pipe): further output is dropped.
  public var failed: Bool { output.failureMessage != nil }

  /// Encodes the record into the pending buffer; written out at the next `flush`, or at once when
  /// the buffer has grown past 64 KiB.
  public func receive(_ record: PullRecord) {
    pending.withLock { buffer in
      JSONLinesEncoding.append(record, to: &buffer)
      if buffer.bytes.count >= highWater { write(&buffer) }
    }
  }

  /// Encodes the records under one lock, in order, as `receive` would one by one.
  public func receive(contentsOf records: [PullRecord]) {
    pending.withLock { buffer in
      // By index: each record is read in place, where `for record in` copied it (a retain
      // and a release of every field).
      for index in records.indices {
        JSONLinesEncoding.append(records[index], to: &buffer)
        if buffer.bytes.count >= highWater { write(&buffer) }
      }
    }
  }

  /// Encodes the ends in order from their names and fields: no `EndRecord` is made (the bytes
  /// are those of `receive(contentsOf: ends.records)`). Other sources' records may come
  /// between parts of the batch, as between any two sources' records.
  public func receive(unpulled ends: any UnpulledEndBatch) {
    encode(ends)
  }

  /// `receive(unpulled:)` with the batch's type opened once, not once per end. Encoded outside
  /// the lock, up to `highWater` bytes at a time, and added under it: a thousand `not_due` ends
  /// take about half a millisecond to encode, and a parse thread with a record to add waited
  /// that long, spinning in the kernel while this thread ran (a contended `Mutex` is a
  /// priority-inheriting futex, whose waiter spins while its owner is on a CPU): 4% of the CPU
  /// of a `--due -i` pass over a million names with its due files spread through the list.
  private func encode(_ ends: some UnpulledEndBatch) {
    var part = JSONLineBuffer()
    var index = 0
    while index < ends.count {
      while index < ends.count, part.bytes.count < highWater {
        JSONLinesEncoding.append(ends, at: index, to: &part)
        index += 1
      }
      part.bytes.withUnsafeBytes { lines in
        let encoded = EncodedLines(bytes: lines)
        pending.withLock { buffer in
          if buffer.isEmpty && encoded.bytes.count >= highWater {
            // A whole part with nothing before it: written from where it was encoded, not
            // copied into the buffer first.
            _ = output.write(encoded.bytes)
          } else {
            buffer.append(lines: encoded.bytes)
            if buffer.bytes.count >= highWater { write(&buffer) }
          }
        }
      }
      part.removeAll()
    }
  }

  /// Writes every pending line to the file descriptor in one `write`; after a failed write it drops
  /// them (see `failed`).
  public func flush() {
    pending.withLock { buffer in
      if !buffer.isEmpty { write(&buffer) }
    }
  }

  /// Writes one line the caller encoded (a record of its own, such as a watch's statistics)
  /// after the records before it, and flushes.
  public func write(line: [UInt8]) {
    pending.withLock { buffer in
      if !buffer.isEmpty { write(&buffer) }
      output.write(line + [10])
    }
  }

  /// Writes and empties `buffer`; runs under the lock so records keep their order.
  private func write(_ buffer: inout JSONLineBuffer) {
    _ = buffer.bytes.withUnsafeBytes { output.write($0) }
    buffer.removeAll()
  }
}

/// Lines encoded outside the writer's lock, handed to it to be copied under the lock.
/// `@unchecked Sendable`: a view of a buffer its encoder owns, read only while the encoder
/// waits for the copy, and never kept.
private struct EncodedLines: @unchecked Sendable {
  let bytes: UnsafeRawBufferPointer
}
