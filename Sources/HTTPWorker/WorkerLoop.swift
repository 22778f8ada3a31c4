import CCurl
import FeedPullSupport
import Foundation

/// Everything the worker thread owns: the curl multi handle, the socket pump, the queue of
/// waiting transfers and the running ones. Created, used and torn down on that thread only.
///
/// Admission (`TransferAdmission`): a transfer enters curl only when one of `maxInFlight` slots
/// is free, its politeness host has fewer than `maxPerHost` transfers running and its last
/// request start is `hostDelay` ago, because time spent queued inside curl counts against
/// CURLOPT_TIMEOUT (docs/libraries.md). A transfer held by its host's delay is started by one
/// admission timer, moved to the earliest time any waiting transfer may start.
final class WorkerLoop {
  let audit: CurlThreadAudit
  private let configuration: ConnectionWorker.Configuration
  private let policy: NetworkPolicy
  private let inbox: WorkerInbox
  private let doorbell: RunLoopDoorbell
  private let multi: CurlMulti
  /// TLS sessions of every transfer, so a new connection resumes an earlier one's session.
  private let share: CurlShare?
  private var pump: SocketPump?
  private var admission: TransferAdmission<TransferID>
  private var admissionTimer: Timer?
  private let clockOrigin = ContinuousClock.now
  private var waiting: [TransferID: RunningTransfer] = [:]
  private var running: [UnsafeMutableRawPointer: RunningTransfer] = [:]
  private var runningByID: [TransferID: RunningTransfer] = [:]
  /// Easy handles of ended transfers, reset for the next ones (at most `maxInFlight`): a new
  /// handle per transfer cost an allocation of curl's state and buffers and their first
  /// touches each time (a 304 is little more than that); a reset one keeps them.
  private var spareHandles: [CurlEasy] = []
  /// Set once `stop` has torn curl down; the thread's loop then ends.
  private(set) var isDone = false

  init(configuration: ConnectionWorker.Configuration, inbox: WorkerInbox) throws(WorkerStartError) {
    self.configuration = configuration
    policy = NetworkPolicy(configuration)
    self.inbox = inbox
    audit = CurlThreadAudit()
    doorbell = RunLoopDoorbell()
    guard let multi = CurlMulti(audit: audit) else {
      throw WorkerStartError(message: "libcurl could not be initialised")
    }
    self.multi = multi
    share = CurlShare(audit: audit)
    admission = TransferAdmission(
      limits: .init(
        maxInFlight: configuration.maxInFlight, maxPerHost: configuration.maxPerHost,
        hostDelay: configuration.hostDelay))

    let reference = WorkerLoopReference(self)
    let doorbell = doorbell
    do {
      pump = try SocketPump(
        onReady: { reference.loop?.drainSockets() },
        onTimer: { reference.loop?.curlDeadlinePassed() })
    } catch {
      multi.cleanup()
      share?.cleanup()
      throw error
    }
    // Timer(fire:…) with a far date: attached for the worker's life, moved to each moment a
    // host's delay lets a waiting transfer start.
    let timer = Timer(fire: .distantFuture, interval: 86_400, repeats: true) { _ in
      reference.loop?.admissionTimerFired()
    }
    RunLoop.current.add(timer, forMode: .default)
    admissionTimer = timer
    let context = Unmanaged.passUnretained(self).toOpaque()
    multi.setSocketCallback(
      { _, fd, what, context, _ in
        guard let context else { return 0 }
        Unmanaged<WorkerLoop>.fromOpaque(context).takeUnretainedValue().pump?.watch(fd, what: what)
        return 0
      }, context: context)
    multi.setTimerCallback(
      { _, milliseconds, context in
        guard let context else { return 0 }
        let loop = Unmanaged<WorkerLoop>.fromOpaque(context).takeUnretainedValue()
        loop.pump?.setDeadline(milliseconds: milliseconds)
        return 0
      }, context: context)
    // A second line behind our own per-host admission: redirects to another host are only
    // limited here (and wait inside curl).
    multi.setOption(CURLMOPT_MAX_HOST_CONNECTIONS, max(1, configuration.maxPerHost))
    // Idle connections kept for reuse: curl's own rule (four per transfer it holds) at the most
    // transfers admission lets in, fixed. Left to curl, the cache shrank whenever fewer transfers
    // were in flight for a moment (a subscription run between two claims) and closed connections
    // that the next transfers to the same host then opened again: 47 connections instead of 16
    // for a first pull of 1,000 feeds from one server.
    let idle = max(1, configuration.maxInFlight).multipliedReportingOverflow(by: 4)
    multi.setOption(CURLMOPT_MAXCONNECTS, idle.overflow ? Int.max : idle.partialValue)
    inbox.attach(doorbell: doorbell) { reference.loop?.drainInbox() }
  }

  // MARK: Events from the run loop

  /// Runs the commands other threads queued.
  private func drainInbox() {
    for command in inbox.takeCommands() {
      switch command {
      case .add(let id, let request, let handoff):
        let transfer = RunningTransfer(
          id: id, request: request, delegate: handoff.delegate, policy: policy,
          isCancelRequested: { [inbox] in inbox.isCancelRequested($0) })
        waiting[id] = transfer
        admission.enqueue(id, host: transfer.hostKey)
      case .cancel(let id): cancel(id)
      case .resume(let id): resume(id)
      case .stop: stop()
      }
    }
    admit()
    runTimeoutsDueNow()
  }

  /// Some of curl's sockets are newly ready: tell curl, reap, and run curl's timeouts due.
  ///
  /// Sockets that became ready while curl worked on the others are taken in the same drain,
  /// a few rounds at most: over HTTP/2 every stream shares one socket, which the server feeds
  /// frame by frame, and a drain per frame (a dispatch thread's wake-up, then this thread's)
  /// made 1,000 feeds over one connection cost 1,200 drains and 2,400 context switches.
  ///
  /// The run loop reports the set again only when something new becomes ready in it, so a set
  /// still ready after the last round is drained again at the loop's next turn.
  private func drainSockets() {
    guard let pump else { return }
    var drained = false
    for _ in 0..<Self.drainRounds {
      guard let ready = pump.readyNow() else {
        drained = true
        break
      }
      for socket in ready {
        multi.socketAction(socket.fd, socket.flags)
      }
    }
    reapFinished()
    runTimeoutsDueNow()
    if !drained && !isDone {
      let reference = WorkerLoopReference(self)
      doorbell.post { reference.loop?.drainSockets() }
    }
  }

  /// Rounds of `readyNow` in one drain; bounded so that a socket that is always ready cannot
  /// keep the run loop from its timers and inbox.
  private static let drainRounds = 8

  /// curl's timer ran out.
  private func curlDeadlinePassed() {
    pump?.clearDeadline()
    multi.socketAction(CURL_SOCKET_TIMEOUT, 0)
    reapFinished()
    runTimeoutsDueNow()
  }

  /// Runs curl's timeout here, before the worker returns to its run loop, while curl asks for it
  /// at once (it does for every transfer added: its request is sent from the timeout), instead
  /// of moving the timer to now and back. Never from inside a curl callback: called last by each
  /// event of the run loop. A few rounds at most; a request left then goes to the timer.
  private func runTimeoutsDueNow() {
    guard let pump, !isDone else { return }
    var rounds = 0
    while pump.takeTimeoutNow() {
      guard rounds < Self.drainRounds else {
        pump.fireSoon()
        return
      }
      rounds += 1
      multi.socketAction(CURL_SOCKET_TIMEOUT, 0)
      reapFinished()
      if isDone { return }
    }
  }

  // MARK: Transfers

  /// Starts every transfer the admission rules allow now, and moves the admission timer to the
  /// next moment a host's delay ends, if something waits for one.
  private func admit() {
    guard !isDone else { return }
    while true {
      switch admission.next(at: clockOrigin.duration(to: .now)) {
      case .start(let id, let host):
        guard let transfer = waiting.removeValue(forKey: id) else {
          // Never happens (a cancelled transfer is withdrawn from admission too); if it did,
          // its slot must not stay counted as running.
          admission.finished(host: host)
          continue
        }
        start(transfer)
      case .waitUntil(let time):
        let delay = time - clockOrigin.duration(to: .now)
        admissionTimer?.fireDate = Date(timeIntervalSinceNow: max(0, delay.inSeconds))
        return
      case .waitForAnEnd, .idle:
        admissionTimer?.fireDate = .distantFuture
        return
      }
    }
  }

  private func admissionTimerFired() {
    admissionTimer?.fireDate = .distantFuture
    admit()
    runTimeoutsDueNow()
  }

  private func start(_ transfer: RunningTransfer) {
    transfer.handle(.started)
    do throws(RequestHeaderError) {
      try RequestHeaderCheck.check(transfer.request)
    } catch {
      // Never sent: the layers above refuse such headers first; this is the last line.
      admission.finished(host: transfer.hostKey)
      end(transfer, .failure(TransferError(kind: .protocol, message: error.description)))
      return
    }
    let context = Unmanaged.passUnretained(transfer).toOpaque()
    guard
      let easy = transfer.makeHandle(
        audit: audit, share: share, context: context, spare: spareHandles.popLast())
    else {
      admission.finished(host: transfer.hostKey)
      end(transfer, .failure(TransferError(kind: .network, message: "curl_easy_init failed")))
      return
    }
    let added = multi.add(easy)
    guard added == CURLM_OK else {
      admission.finished(host: transfer.hostKey)
      let message = String(cString: curl_multi_strerror(added))
      end(transfer, .failure(TransferError(kind: .network, message: message)))
      return
    }
    running[easy.handle] = transfer
    runningByID[transfer.id] = transfer
  }

  private func reapFinished() {
    while let (handle, result) = multi.nextFinished() {
      guard let transfer = running[handle] else { continue }
      detach(transfer)
      end(transfer, outcome(of: transfer, result: result))
    }
    admit()
  }

  /// How a transfer that curl finished ends, from what the callbacks saw and curl's result.
  private func outcome(of transfer: RunningTransfer, result: CURLcode) -> Result<
    Void, TransferError
  > {
    if let reason = transfer.abortReason { return .failure(reason) }
    if result == CURLE_COULDNT_CONNECT, let denied = transfer.deniedError() {
      return .failure(denied)
    }
    guard result == CURLE_OK else {
      let kind = CurlResultKind.kind(of: result)
      let status = transfer.easy?.long(CURLINFO_RESPONSE_CODE) ?? 0
      var message = transfer.easy?.message(for: result) ?? "curl error \(result.rawValue)"
      if result == CURLE_OUT_OF_MEMORY {
        message =
          "response past libcurl's buffers (a header line over 100 KB, or a body that "
          + "decompresses past 64 MB in one read): \(message)"
      }
      let statusKinds: [TransferError.Kind] = [.http, .redirects, .protocol]
      return .failure(
        TransferError(
          kind: kind, message: message,
          status: statusKinds.contains(kind) && status > 0 ? status : nil,
          curlCode: Int(result.rawValue)))
    }
    // No body reached the write callback (a 304, an empty 200, an error status without a body):
    // the status is checked and the response offered here.
    if !transfer.responseDelivered, let refusal = transfer.deliverResponse() {
      return .failure(refusal)
    }
    return .success(())
  }

  private func cancel(_ id: TransferID) {
    if let transfer = waiting.removeValue(forKey: id) {
      _ = admission.withdraw(id, host: transfer.hostKey)
      transfer.markCancelled()
      end(transfer, .failure(RunningTransfer.cancelled))
    } else if let transfer = runningByID[id] {
      detach(transfer)
      transfer.markCancelled()
      end(transfer, .failure(transfer.abortReason ?? RunningTransfer.cancelled))
    }
    inbox.settleCancel(id)
  }

  /// Unpauses a transfer whose delegate answered `.pause`. curl may deliver the held bytes from
  /// inside `curl_easy_pause`. The socket API has a history of stalls after unpause (curl issues
  /// #2393, #4966, #8360, #6631), so curl is kicked with a timeout action at once.
  private func resume(_ id: TransferID) {
    guard let transfer = runningByID[id], transfer.isPaused, let easy = transfer.easy else {
      return
    }
    transfer.handle(.resumed)
    let result = easy.unpause()
    if result != CURLE_OK || transfer.abortReason != nil {
      detach(transfer)
      end(transfer, outcome(of: transfer, result: result))
    }
    multi.socketAction(CURL_SOCKET_TIMEOUT, 0)
    reapFinished()
  }

  private func detach(_ transfer: RunningTransfer) {
    guard let easy = transfer.easy else { return }
    multi.remove(easy)
    running[easy.handle] = nil
    runningByID[transfer.id] = nil
    admission.finished(host: transfer.hostKey)
  }

  /// Tells the delegate, exactly once, and forgets the transfer.
  private func end(_ transfer: RunningTransfer, _ outcome: Result<Void, TransferError>) {
    let summary = transfer.summary()
    if let easy = transfer.takeHandle() { recycle(easy) }
    transfer.handle(.ended)
    switch outcome {
    case .success: transfer.delegate.transfer(transfer.id, didFinish: summary)
    case .failure(let error):
      transfer.delegate.transfer(transfer.id, didFail: error, summary: summary)
    }
    inbox.settleCancel(transfer.id)
    inbox.transferEnded()
  }

  /// Keeps an ended transfer's handle, reset, for the next transfer, or frees it when enough
  /// are kept. Its transfer must be out of the multi handle (`detach`), or never in it.
  private func recycle(_ easy: CurlEasy) {
    guard !isDone, spareHandles.count < configuration.maxInFlight else { return easy.cleanup() }
    easy.prepareForReuse()
    spareHandles.append(easy)
  }

  /// Cancels everything, then tears curl down here on its own thread while the socket callback's
  /// target (this object and the pump) is alive: `curl_multi_cleanup` calls it again.
  private func stop() {
    let queued = waiting.values.sorted { $0.id.rawValue < $1.id.rawValue }
    waiting = [:]
    for transfer in queued {
      end(transfer, .failure(RunningTransfer.cancelled))
    }
    for transfer in Array(running.values).sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
      detach(transfer)
      end(transfer, .failure(RunningTransfer.cancelled))
    }
    for easy in spareHandles { easy.cleanup() }
    spareHandles = []
    multi.cleanup()
    // After the multi handle: every easy handle that used the share is gone by now.
    share?.cleanup()
    pump?.tearDown()
    pump = nil
    admissionTimer?.invalidate()
    admissionTimer = nil
    isDone = true
    doorbell.stopLoop()
  }
}

/// A weak reference to the worker loop that can ride in `@Sendable` closures (run-loop blocks,
/// the dispatch source, the timer) and is dereferenced only on the worker thread.
private struct WorkerLoopReference: @unchecked Sendable {
  private weak var object: WorkerLoop?
  private let audit: CurlThreadAudit

  init(_ loop: WorkerLoop) {
    object = loop
    audit = loop.audit
  }

  var loop: WorkerLoop? {
    assert(audit.isOwnerThread, "worker loop touched off its thread")
    return object
  }
}

@available(*, unavailable) extension WorkerLoop: Sendable {}
