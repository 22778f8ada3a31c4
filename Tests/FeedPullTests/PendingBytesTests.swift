import Testing

@testable import FeedPull

/// How chunks join buffers between the worker thread and a transfer's parse queue: a block per
/// buffer, buffers of at most 64 KB, bytes in order, buffers reused.
@Suite struct PendingBytesTests {
  static func chunk(_ value: UInt8, _ count: Int) -> [UInt8] {
    Array(repeating: value, count: count)
  }

  @Test func chunksJoinTheWaitingBufferUntilItIsFull() {
    let pending = PendingBytes()
    var blocks = 0
    var sent: [UInt8] = []
    for index in 0..<20 {
      let bytes = Self.chunk(UInt8(index), 8 * 1024)
      sent += bytes
      if bytes.withUnsafeBytes({ pending.append($0) }) { blocks += 1 }
    }
    // 20 chunks of 8 KB: buffers of 8, 8 and 4 chunks, one block each.
    #expect(blocks == 3)
    var received: [UInt8] = []
    for _ in 0..<blocks {
      let buffer = pending.takeOldest()
      #expect(buffer.count <= PendingBytes.bufferSize)
      received += buffer
    }
    #expect(received == sent)
    #expect(pending.takeOldest().isEmpty)
  }

  @Test func aChunkAfterItsBufferWasTakenQueuesANewBlock() {
    let pending = PendingBytes()
    let first = Self.chunk(1, 100)
    #expect(first.withUnsafeBytes { pending.append($0) })
    var buffer = pending.takeOldest()
    #expect(buffer == first)
    // The parser keeps up: the next chunk does not wait for a block that already ran.
    #expect(Self.chunk(2, 100).withUnsafeBytes { pending.append($0) })
    buffer.removeAll(keepingCapacity: true)
    pending.giveBack(buffer)
    #expect(pending.takeOldest() == Self.chunk(2, 100))
  }
}
