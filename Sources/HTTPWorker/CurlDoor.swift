import CCurl
import CFeedPullShims

/// The one door to libcurl: typed Swift wrappers over the multi and easy handles, each call
/// checked against the owning thread. The rest of the worker speaks these types, never curl's C.

/// Process-wide initialisation. `curl_global_init` is not thread-safe in every 7.88 build, so it
/// runs once, guarded by Swift's lazily initialised globals (which use `swift_once`).
private let curlGlobalInitResult: CURLcode = curl_global_init(Int(CURL_GLOBAL_SSL) | (1 << 1))

/// A libcurl multi handle, used only on the thread of its audit.
final class CurlMulti {
  typealias SocketCallback =
    @convention(c) (
      UnsafeMutableRawPointer?, curl_socket_t, Int32, UnsafeMutableRawPointer?,
      UnsafeMutableRawPointer?
    ) -> Int32
  typealias TimerCallback =
    @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32

  private let handle: UnsafeMutableRawPointer
  let audit: CurlThreadAudit

  /// Nil when curl cannot start: its global initialisation failed, or it is out of memory.
  init?(audit: CurlThreadAudit) {
    audit.check()
    guard curlGlobalInitResult == CURLE_OK, let multi = curl_multi_init() else { return nil }
    self.audit = audit
    handle = multi
  }

  func setSocketCallback(_ callback: SocketCallback, context: UnsafeMutableRawPointer) {
    audit.check()
    _ = fp_multi_setopt_socket_callback(handle, callback)
    _ = fp_multi_setopt_ptr(handle, CURLMOPT_SOCKETDATA, context)
  }

  func setTimerCallback(_ callback: TimerCallback, context: UnsafeMutableRawPointer) {
    audit.check()
    _ = fp_multi_setopt_timer_callback(handle, callback)
    _ = fp_multi_setopt_ptr(handle, CURLMOPT_TIMERDATA, context)
  }

  func setOption(_ option: CURLMoption, _ value: Int) {
    audit.check()
    _ = fp_multi_setopt_long(handle, option, value)
  }

  func add(_ easy: CurlEasy) -> CURLMcode {
    audit.check()
    return curl_multi_add_handle(handle, easy.handle)
  }

  func remove(_ easy: CurlEasy) {
    audit.check()
    _ = curl_multi_remove_handle(handle, easy.handle)
  }

  /// Tells curl that `socket` is ready (`CURL_CSELECT_*` flags), or that its timer expired when
  /// `socket` is `CURL_SOCKET_TIMEOUT`.
  func socketAction(_ socket: curl_socket_t, _ flags: Int32) {
    audit.check()
    var running: Int32 = 0
    _ = curl_multi_socket_action(handle, socket, flags, &running)
  }

  /// The next finished transfer: its easy handle and result.
  func nextFinished() -> (easy: UnsafeMutableRawPointer, result: CURLcode)? {
    audit.check()
    var left: Int32 = 0
    while let message = curl_multi_info_read(handle, &left) {
      if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle {
        return (easy, fp_msg_result(message))
      }
    }
    return nil
  }

  /// Frees the handle. curl calls the socket callback again from here, so the callback's context
  /// must still be alive (docs/libraries.md: never from `deinit`).
  func cleanup() {
    audit.check()
    _ = curl_multi_cleanup(handle)
  }
}

/// A libcurl easy handle, used only on the thread of its audit.
final class CurlEasy {
  typealias DataCallback =
    @convention(c) (
      UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?
    ) -> Int

  typealias OpenSocketCallback =
    @convention(c) (
      UnsafeMutableRawPointer?, curlsocktype, UnsafeMutablePointer<curl_sockaddr>?
    ) -> curl_socket_t

  let handle: UnsafeMutableRawPointer
  private let audit: CurlThreadAudit
  /// curl writes its detailed message for a failure here (CURLOPT_ERRORBUFFER).
  private let errorBuffer: UnsafeMutablePointer<CChar>
  private var headerList: UnsafeMutablePointer<curl_slist>?

  init?(audit: CurlThreadAudit) {
    audit.check()
    guard let easy = curl_easy_init() else { return nil }
    handle = easy
    self.audit = audit
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    _ = fp_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
  }

  @discardableResult
  func set(_ option: CURLoption, _ value: Int) -> CURLcode {
    audit.check()
    return fp_easy_setopt_long(handle, option, value)
  }

  @discardableResult
  func set(_ option: CURLoption, _ value: String) -> CURLcode {
    audit.check()
    // curl copies string options (since 7.17), so the temporary C string may go.
    return value.withCString { fp_easy_setopt_str(handle, option, $0) }
  }

  func set(_ option: CURLoption, _ value: UnsafeMutableRawPointer) {
    audit.check()
    _ = fp_easy_setopt_ptr(handle, option, value)
  }

  func set(_ option: CURLoption, callback: DataCallback) {
    audit.check()
    _ = fp_easy_setopt_write_callback(handle, option, callback)
  }

  /// Sets a string option to NULL: curl's "none" (`CURLOPT_CAPATH` without a directory, say),
  /// which is not its default for every option.
  func setNone(_ option: CURLoption) {
    audit.check()
    _ = fp_easy_setopt_ptr(handle, option, nil)
  }

  /// The callback that opens each socket, with the address it will connect to.
  func setOpenSocket(_ callback: OpenSocketCallback, context: UnsafeMutableRawPointer) {
    audit.check()
    _ = fp_easy_setopt_opensocket_callback(handle, callback)
    _ = fp_easy_setopt_ptr(handle, CURLOPT_OPENSOCKETDATA, context)
  }

  /// Joins the share handle's caches (TLS sessions).
  func setShare(_ share: CurlShare) {
    audit.check()
    _ = fp_easy_setopt_ptr(handle, CURLOPT_SHARE, share.handle)
  }

  /// Extra request headers, none for an empty `lines`; the list lives until the next call or
  /// `cleanup`, as curl requires.
  func setHeaders(_ lines: [String]) {
    audit.check()
    let old = headerList
    var list: UnsafeMutablePointer<curl_slist>?
    for line in lines {
      list = line.withCString { curl_slist_append(list, $0) }
    }
    headerList = list
    if let list {
      _ = fp_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
    } else if old != nil {
      _ = fp_easy_setopt_ptr(handle, CURLOPT_HTTPHEADER, nil)
    }
    curl_slist_free_all(old)
  }

  func long(_ info: CURLINFO) -> Int {
    audit.check()
    var value = 0
    _ = fp_easy_getinfo_long(handle, info, &value)
    return value
  }

  func string(_ info: CURLINFO) -> String? {
    audit.check()
    var value: UnsafePointer<CChar>?
    guard fp_easy_getinfo_str(handle, info, &value) == CURLE_OK, let value else { return nil }
    return String(cString: value)
  }

  /// Unpauses receiving. curl may call the write callback from inside this call.
  func unpause() -> CURLcode {
    audit.check()
    return curl_easy_pause(handle, 0)  // CURLPAUSE_CONT
  }

  /// curl's message for `code`: the error buffer when curl filled it, else the generic text.
  func message(for code: CURLcode) -> String {
    audit.check()
    let detail = String(cString: errorBuffer)
    return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
  }

  /// Readies the handle for another transfer of the same worker: its options stay (the next
  /// transfer sets each of its own, `TransferOptions`), the message of the last failure goes.
  /// `curl_easy_reset`, which set every option back to curl's default, was a quarter of what the
  /// worker's thread did for a 304 besides curl's own work. Only for a handle no multi handle
  /// holds.
  func prepareForReuse() {
    audit.check()
    errorBuffer[0] = 0
  }

  func cleanup() {
    audit.check()
    curl_easy_cleanup(handle)
    curl_slist_free_all(headerList)
    headerList = nil
    errorBuffer.deallocate()
  }
}

/// A libcurl share handle holding the TLS sessions of every transfer of one worker, so that a
/// new connection to a server resumes the session of an earlier one instead of a full
/// handshake (each easy handle would otherwise keep its own cache and begin empty). Used only
/// on the thread of its audit, so curl needs no lock callbacks.
final class CurlShare {
  let handle: UnsafeMutableRawPointer
  private let audit: CurlThreadAudit

  init?(audit: CurlThreadAudit) {
    audit.check()
    guard let share = curl_share_init() else { return nil }
    guard fp_share_ssl_sessions(share) == CURLSHE_OK else {
      curl_share_cleanup(share)
      return nil
    }
    handle = share
    self.audit = audit
  }

  /// Frees the handle; every easy handle that used it must be cleaned up first.
  func cleanup() {
    audit.check()
    _ = curl_share_cleanup(handle)
  }
}

@available(*, unavailable) extension CurlShare: Sendable {}
@available(*, unavailable) extension CurlMulti: Sendable {}
@available(*, unavailable) extension CurlEasy: Sendable {}
