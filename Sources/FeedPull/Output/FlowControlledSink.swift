/// A sink whose reader can fall behind (an async consumer slower than the network). While it is
/// behind, transfers pause and local readers wait, so memory stays bounded instead of
/// buffering whole feeds; records already parsed from the current chunk are still delivered.
///
/// Class-bound: a transfer copies its flow control several times a pull, and a class
/// existential copies as a reference, where any other went through its type's copy routine.
protocol FlowControlledSink: PullRecordSink, AnyObject {
  /// True while the reader is behind: take no more bytes for now.
  var isBehind: Bool { get }
  /// Runs `action` once the reader has caught up, at once if it already has.
  func whenCaughtUp(_ action: @escaping @Sendable () -> Void)
}

/// The flow control of a sink, when it has one.
enum FlowControl {
  /// `sink` as a `FlowControlledSink`, nil for a sink without flow control. Asked by comparing
  /// its type with the one class that has it (the async stream's buffer, final): a cast to the
  /// protocol looked its conformance up in the runtime's tables at every pull (2,200
  /// instructions a source, as much as scheduling it), a cast to the class still took 1,400. A
  /// new conforming type must be added here.
  static func of(_ sink: any PullRecordSink) -> (any FlowControlledSink)? {
    guard type(of: sink) == RecordStreamBuffer.self else { return nil }
    return sink as? RecordStreamBuffer
  }
}
