/// A sink whose reader can fall behind (an async consumer slower than the network). While it is
/// behind, transfers pause and local readers wait, so memory stays bounded instead of
/// buffering whole feeds; records already parsed from the current chunk are still delivered.
protocol FlowControlledSink: PullRecordSink {
  /// True while the reader is behind: take no more bytes for now.
  var isBehind: Bool { get }
  /// Runs `action` once the reader has caught up, at once if it already has.
  func whenCaughtUp(_ action: @escaping @Sendable () -> Void)
}
