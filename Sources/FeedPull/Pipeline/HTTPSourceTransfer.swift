import HTTPWorker

/// The transfer delegate that joins one transfer to its document: the response's headers go
/// into the end record, the body's chunks into the parser, the transfer's end into `end`.
/// Runs on the worker thread.
final class HTTPSourceTransfer: TransferDelegate {
  private let document: DocumentPull
  private let flowControl: (any FlowControlledSink)?
  private let cancel: @Sendable (TransferID) -> Void
  private let resume: @Sendable (TransferID) -> Void
  /// Set when this side ended the transfer early (the parser stopped, or `--max-bytes`): the
  /// `cancelled` that follows is ours, and `end` says why.
  private var endedEarly: PullError??

  init(
    document: DocumentPull, flowControl: (any FlowControlledSink)?,
    cancel: @escaping @Sendable (TransferID) -> Void,
    resume: @escaping @Sendable (TransferID) -> Void
  ) {
    self.document = document
    self.flowControl = flowControl
    self.cancel = cancel
    self.resume = resume
  }

  func transfer(_ id: TransferID, didReceive response: TransferResponse) -> ResponseDisposition {
    record(response)
    if response.status == 304 { return .allow }
    document.begin(
      documentURL: response.url, charset: ContentType.charset(of: response.contentType))
    return .allow
  }

  func transfer(_ id: TransferID, didReceive chunk: UnsafeRawBufferPointer) -> ChunkDisposition {
    guard endedEarly == nil else { return .consumed }
    if let flowControl, flowControl.isBehind {
      let resume = resume
      flowControl.whenCaughtUp { resume(id) }
      return .pause
    }
    if !document.consume(chunk) {
      endedEarly = .some(PullError(kind: .tooLarge, message: "body larger than --max-bytes"))
      cancel(id)
    } else if document.parserStopped {
      endedEarly = .some(nil)
      cancel(id)
    }
    return .consumed
  }

  func transfer(_ id: TransferID, didFinish summary: TransferSummary) {
    if let response = summary.response { record(response) }
    document.complete(endedEarly ?? nil)
  }

  func transfer(_ id: TransferID, didFail error: TransferError, summary: TransferSummary) {
    if let response = summary.response { record(response) }
    if error.kind == .cancelled, let early = endedEarly {
      document.complete(early)
    } else {
      document.complete(PullError(error))
    }
  }

  private func record(_ response: TransferResponse) {
    document.update { end in
      end.url = response.url
      end.status = response.status
      end.notModified = response.status == 304
      end.permanentRedirect = response.permanentRedirect
      end.retryAfter = response.retryAfter
      end.etag = response.etag
      end.lastModified = response.lastModified
      end.contentType = response.contentType
    }
  }
}
