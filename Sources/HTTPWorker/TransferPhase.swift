/// Where one transfer is in its life, changed only through `TransferLifecycle.handle(_:)`.
///
/// One enum instead of loose flags (response delivered, abort reason, paused, cancel requested)
/// because the flags allowed combinations that mean nothing (paused after an abort, a response
/// delivered twice); here every transition is written down, an impossible one stops a debug
/// build at the spot where it happened, and the whole life can be tested without a socket.
enum TransferPhase: Equatable, Sendable {
  /// Waiting in the worker's admission queue; not in curl yet.
  case queued
  /// In curl; the final response's status has not been checked yet.
  case awaitingResponse
  /// The response was accepted; body chunks go to the delegate.
  case streaming
  /// The delegate answered `.pause`: curl holds the chunk until `resume`.
  case paused
  /// The worker decided to end the transfer (cancelled, over the size limit, a refused status);
  /// curl may still report, but the reason here is what the delegate will hear.
  case aborting(TransferError)
  /// The delegate has heard `didFinish` or `didFail`; nothing more happens.
  case ended
}

/// The transfer life cycle as a pure state machine, in the shape of async-http-client's
/// `Transaction.StateMachine`: events in, the new phase out, impossible events caught.
struct TransferLifecycle: Sendable {
  enum Event: Equatable, Sendable {
    /// Handed to curl.
    case started
    /// The final status was good and the delegate allowed the response.
    case responseAccepted
    case paused
    case resumed
    /// End early for this reason; the first reason given wins.
    case abort(TransferError)
    /// The delegate has been told.
    case ended
  }

  private(set) var phase: TransferPhase = .queued

  /// Applies `event`. Events that cannot happen in the current phase are programming errors.
  mutating func handle(_ event: Event) {
    switch (phase, event) {
    case (.queued, .started): phase = .awaitingResponse
    case (.awaitingResponse, .responseAccepted): phase = .streaming
    case (.streaming, .paused): phase = .paused
    case (.paused, .resumed): phase = .streaming
    case (.queued, .abort(let reason)), (.awaitingResponse, .abort(let reason)),
      (.streaming, .abort(let reason)), (.paused, .abort(let reason)):
      phase = .aborting(reason)
    case (.aborting, .abort): break  // The first reason is the one the delegate hears.
    case (.aborting, .resumed): break  // A resume that raced a cancel: the cancel wins.
    case (.ended, _):
      preconditionFailure("transfer event \(event) after it ended")
    case (_, .ended): phase = .ended
    default:
      preconditionFailure("transfer event \(event) in phase \(phase)")
    }
  }

  /// Why the worker is ending the transfer early, if it is.
  var abortReason: TransferError? {
    if case .aborting(let reason) = phase { return reason }
    return nil
  }

  /// True once the response was checked and accepted (and the transfer not aborted since).
  var responseAccepted: Bool { phase == .streaming || phase == .paused }

  var isPaused: Bool { phase == .paused }
}
