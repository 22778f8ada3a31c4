/// One thread with its own run loop that alone owns libcurl. STUB: the real implementation
/// replaces this file.
public final class ConnectionWorker: Sendable {
  public struct Configuration: Sendable {
    /// Transfers in flight at once; the rest wait in the worker's queue, outside curl.
    public var maxInFlight = 8
    /// Connections to one host at once.
    public var maxPerHost = 8
    public init() {}
  }

  public init(configuration: Configuration = Configuration()) {}

  /// Queues a transfer; its delegate is called on the worker thread. Safe from any thread.
  @discardableResult
  public func add(_ request: TransferRequest, delegate: sending any TransferDelegate) -> TransferID {
    TransferID(rawValue: 0)
  }

  /// Cancels a queued or running transfer: it fails with `cancelled` unless it already ended.
  /// Safe from any thread.
  public func cancel(_ id: TransferID) {}

  /// Resumes a transfer whose delegate answered `.pause`. Safe from any thread.
  public func resume(_ id: TransferID) {}

  /// Cancels everything, tears curl down on the worker thread and waits for the thread to end.
  public func stop() {}
}
