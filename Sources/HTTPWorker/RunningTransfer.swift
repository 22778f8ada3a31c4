import CCurl
import CFeedPullShims
import Foundation

/// One transfer on the worker thread: its request, delegate, easy handle and what curl has told
/// it so far. The write and header callbacks land here.
final class RunningTransfer {
  let id: TransferID
  let request: TransferRequest
  let delegate: any TransferDelegate
  /// The politeness host (`PoliteHost`), for the worker's per-host admission.
  let hostKey: String
  /// Asks the inbox whether `cancel(id)` was called, from any thread, since the last check.
  private let isCancelRequested: (TransferID) -> Bool

  /// The worker's network policy (trust, addresses, downgrades, netrc).
  private let policy: NetworkPolicy
  private(set) var easy: CurlEasy?
  private var headers = ResponseHeaderCollector()
  /// The response as `currentResponse()` last made it; dropped when another header line comes.
  /// The summary at the end reuses the one delivered at the first body byte (made from the
  /// header lines, it costs a transfer as much as its curl options).
  private var madeResponse: TransferResponse?
  /// The last address the address policy refused for this transfer, and why (for the
  /// message); the transfer ends `denied` if curl then found no other address to connect to.
  private var deniedAddress: String?
  private(set) var bodyBytes: Int64 = 0
  /// Where the transfer is in its life; every change goes through `lifecycle.handle`.
  private(set) var lifecycle = TransferLifecycle()

  init(
    id: TransferID, request: TransferRequest, delegate: any TransferDelegate,
    policy: NetworkPolicy,
    isCancelRequested: @escaping (TransferID) -> Bool
  ) {
    self.id = id
    self.request = request
    self.policy = policy
    self.delegate = delegate
    self.isCancelRequested = isCancelRequested
    hostKey = PoliteHost.key(forURL: request.url) ?? ""
  }

  /// Why the worker aborted the transfer; curl then reports CURLE_WRITE_ERROR or nothing.
  var abortReason: TransferError? { lifecycle.abortReason }
  /// True once the final status was checked and the delegate accepted the response.
  var responseDelivered: Bool { lifecycle.responseAccepted }
  /// True while the delegate holds the transfer paused.
  var isPaused: Bool { lifecycle.isPaused }

  /// Records a step of the transfer's life (see `TransferLifecycle`).
  func handle(_ event: TransferLifecycle.Event) { lifecycle.handle(event) }

  /// Configures an easy handle: `spare` (one an earlier transfer of this worker gave back, its
  /// options as that transfer left them) or a new one.
  /// `context` is this object, unretained: the worker keeps it alive for as long as the handle
  /// is this transfer's.
  func makeHandle(
    audit: CurlThreadAudit, share: CurlShare?, context: UnsafeMutableRawPointer,
    spare: CurlEasy? = nil
  ) -> CurlEasy? {
    guard let easy = spare ?? CurlEasy(audit: audit) else { return nil }
    self.easy = easy
    TransferOptions.apply(request, policy: policy, to: easy, reused: spare != nil)
    if spare == nil, let share { easy.setShare(share) }
    if policy.addressPolicy.deniesPrivate {
      easy.setOpenSocket(
        { context, _, address in
          guard let context, let address else { return CURL_SOCKET_BAD }
          let transfer = Unmanaged<RunningTransfer>.fromOpaque(context).takeUnretainedValue()
          return transfer.openSocket(address)
        }, context: context)
    }
    easy.set(
      CURLOPT_WRITEFUNCTION,
      callback: { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<RunningTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
      })
    easy.set(CURLOPT_WRITEDATA, context)
    easy.set(
      CURLOPT_HEADERFUNCTION,
      callback: { data, size, count, context in
        guard let context, let data else { return 0 }
        let transfer = Unmanaged<RunningTransfer>.fromOpaque(context).takeUnretainedValue()
        transfer.headers.take(line: UnsafeRawBufferPointer(start: data, count: size * count))
        transfer.madeResponse = nil
        if transfer.headers.blockEnded, let refusal = transfer.refusedRedirect() {
          transfer.lifecycle.handle(.abort(refusal))
          return 0
        }
        return size * count
      })
    easy.set(CURLOPT_HEADERDATA, context)
    return easy
  }

  /// curl's open-socket step, for every connection this transfer opens: refuses an address the
  /// policy denies (curl then tries the host's next address, if it has one), else opens the
  /// socket as curl would.
  private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = Int(fp_sockaddr_bytes(address, &bytes))
    guard let ip = IPAddress(bytes: Array(bytes.prefix(count))) else { return CURL_SOCKET_BAD }
    if let range = policy.addressPolicy.refusal(of: ip) {
      deniedAddress = "\(ip) refused: a \(range) address"
      return CURL_SOCKET_BAD
    }
    return fp_open_socket(address)
  }

  /// Called at the end of each response's header block: a redirect that curl would follow
  /// from https to http is refused here, before anything is sent to the http URL.
  private func refusedRedirect() -> TransferError? {
    guard !policy.allowsDowngrade, request.maxRedirects > 0, let status = headers.status,
      RedirectPolicy.followedStatuses.contains(status), let location = headers.location,
      let current = easy?.string(CURLINFO_EFFECTIVE_URL),
      RedirectPolicy.isDowngrade(from: current, to: location)
    else { return nil }
    return TransferError(
      kind: .protocol,
      message:
        "redirect from https to http refused (a downgrade): \(URLPasswordMask.masked(current)) "
        + "-> \(URLPasswordMask.masked(location))",
      status: status)
  }

  /// The error for a transfer curl could not connect for: `denied` when the policy refused the
  /// address curl would have used.
  func deniedError() -> TransferError? {
    guard let deniedAddress else { return nil }
    return TransferError(
      kind: .denied,
      message: "connection to \(deniedAddress), which the address policy denies")
  }

  /// The write callback: checks the final status before the first body byte, enforces the body
  /// limit on decoded bytes, and hands chunks to the delegate. Returning fewer bytes than given
  /// aborts the transfer; `CURL_WRITEFUNC_PAUSE` pauses it and curl delivers the same bytes again
  /// after unpausing.
  private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard abortReason == nil else { return 0 }
    if isCancelRequested(id) {
      lifecycle.handle(.abort(Self.cancelled))
      return 0
    }
    if !responseDelivered, let refusal = deliverResponse() {
      lifecycle.handle(.abort(refusal))
      return 0
    }
    var deliverable = bytes.count
    var overflow = false
    if let limit = request.maxBodyBytes, bodyBytes + Int64(bytes.count) > limit {
      deliverable = Int(max(0, limit - bodyBytes))
      overflow = true
    }
    if deliverable > 0 {
      let chunk = UnsafeRawBufferPointer(rebasing: bytes[0..<deliverable])
      if delegate.transfer(id, didReceive: chunk) == .pause {
        lifecycle.handle(.paused)
        return Int(CURL_WRITEFUNC_PAUSE)
      }
      bodyBytes += Int64(deliverable)
    }
    if overflow {
      lifecycle.handle(
        .abort(
          TransferError(
            kind: .tooLarge,
            message: "body larger than \(request.maxBodyBytes ?? 0) bytes after decompression")))
      return 0
    }
    return bytes.count
  }

  /// Checks the final status and offers the response to the delegate; returns why the transfer
  /// must stop instead, if it must. Called at the first body byte, or at completion when there
  /// was no body (304, empty 200).
  func deliverResponse() -> TransferError? {
    let response = currentResponse()
    let status = response.status
    guard (200..<300).contains(status) || status == 304 else {
      // With maxRedirects 0 curl still hands a followable 3xx to us; docs/format.md calls that
      // `redirects`, not `http`.
      if (300..<400).contains(status), easy?.string(CURLINFO_REDIRECT_URL) != nil {
        return TransferError(
          kind: .redirects, message: "redirect not followed (limit \(request.maxRedirects))",
          status: status)
      }
      return TransferError(kind: .http, message: "HTTP status \(status)", status: status)
    }
    if isCancelRequested(id) { return Self.cancelled }
    lifecycle.handle(.responseAccepted)
    if delegate.transfer(id, didReceive: response) == .cancel { return Self.cancelled }
    return nil
  }

  /// The final response as known now: status, effective URL and the last header block.
  func currentResponse() -> TransferResponse {
    if let madeResponse { return madeResponse }
    let status = easy?.long(CURLINFO_RESPONSE_CODE) ?? 0
    let url = easy?.string(CURLINFO_EFFECTIVE_URL) ?? request.url
    let response = headers.response(status: status, url: url)
    madeResponse = response
    return response
  }

  /// What the delegate learns at the end: the response if one arrived.
  func summary() -> TransferSummary {
    let status = madeResponse?.status ?? easy?.long(CURLINFO_RESPONSE_CODE) ?? 0
    return TransferSummary(response: status > 0 ? currentResponse() : nil, bodyBytes: bodyBytes)
  }

  /// Records a cancellation decided outside a callback (a queued or paused transfer).
  func markCancelled() {
    lifecycle.handle(.abort(Self.cancelled))
  }

  /// Gives up the easy handle (the caller frees it or keeps it for another transfer); no multi
  /// handle may hold it any more.
  func takeHandle() -> CurlEasy? {
    defer { easy = nil }
    return easy
  }

  static let cancelled = TransferError(kind: .cancelled, message: "cancelled")
}

@available(*, unavailable) extension RunningTransfer: Sendable {}
