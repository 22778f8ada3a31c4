import CYAJL

/// What a JSON push parser reports, in document order. Strings and keys point into memory that
/// is valid only during the call. Returning false stops the parse (the handler has decided).
protocol JSONEventHandler: AnyObject {
  func jsonNull() -> Bool
  func jsonBool(_ value: Bool) -> Bool
  /// A number as the document writes it (yajl never rounds it).
  func jsonNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool
  /// A string value; `mayHoldControls` is false when it is known to hold no C0 control but
  /// tab, LF and CR (`JSONStringBypass` read it), so that the handler need not look.
  func jsonString(_ bytes: UnsafeBufferPointer<UInt8>, mayHoldControls: Bool) -> Bool
  func jsonStartObject() -> Bool
  func jsonKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool
  func jsonEndObject() -> Bool
  func jsonStartArray() -> Bool
  func jsonEndArray() -> Bool
}

/// The one door to yajl 2's push parser: it owns the handle, forwards yajl's callbacks to a
/// `JSONEventHandler`, and keeps every C pointer out of the rest of the module.
///
/// yajl keeps a token cut by a chunk boundary (a string, a number, a literal) in its own buffer
/// and reports it whole once it ends, so the events do not depend on how the text was split;
/// a string is therefore held whole until its closing quote, which `--max-bytes` bounds.
/// Strings are checked to be UTF-8 before they get here (`JSONFeedReader`), so what the handler
/// receives is valid. Most strings are not lexed by yajl at all: `JSONStringBypass` reads them
/// first and yajl parses a placeholder in their place.
final class YAJLPushParser {
  /// Why the parse stopped, when it did.
  enum Stop: Equatable {
    /// The text is not JSON, or it ended before its value did; yajl's message.
    case syntax(String)
    /// The handler returned false.
    case handler
  }

  private var handle: yajl_handle?
  /// The handler, boxed so that yajl's context pointer stays valid while the parser lives.
  private let box: HandlerBox
  private(set) var stop: Stop?
  /// False only in tests that compare the bypass with yajl reading every string itself.
  private let bypassesStrings: Bool

  init?(handler: any JSONEventHandler, bypassesStrings: Bool = true) {
    box = HandlerBox(handler)
    self.bypassesStrings = bypassesStrings
    let context = Unmanaged.passUnretained(box).toOpaque()
    guard let handle = yajl_alloc(YAJLPushParser.callbackTable, nil, context) else { return nil }
    self.handle = handle
    // `JSONFeedReader` checks the UTF-8 itself, before the bytes get here, eight bytes at a
    // time; yajl's check, a character at a time in its lexer, was an eighth of a JSON Feed's parse.
    _ = feedpull_yajl_config_flag(handle, yajl_dont_validate_strings, 1)
  }

  deinit {
    if let handle { yajl_free(handle) }
  }

  /// Parses the next chunk; does nothing once stopped.
  func push(_ bytes: UnsafeRawBufferPointer) {
    guard stop == nil, let handle, let base = bytes.baseAddress, bytes.count > 0 else { return }
    guard bypassesStrings else {
      return record(yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count))
    }
    let bypass = box.bypass
    let text = bypass.rewrite(bytes)
    let status = yajl_parse(handle, text.baseAddress, text.count)
    bypass.endChunk()
    record(status)
  }

  /// Stops the parse as yajl stops at a syntax error, with its message: for bytes that never
  /// reach it (text that is not UTF-8).
  func stop(syntaxError message: String) {
    if stop == nil { stop = .syntax(message) }
  }

  /// Ends the text: a value still open (a cut-off document) is a syntax error.
  func finish() {
    guard stop == nil, let handle else { return }
    record(yajl_complete_parse(handle))
  }

  private func record(_ status: yajl_status) {
    switch status {
    case yajl_status_ok: return
    case yajl_status_client_canceled: stop = .handler
    default: stop = .syntax(errorMessage())
    }
  }

  private func errorMessage() -> String {
    guard let handle, let text = yajl_get_error(handle, 0, nil, 0) else { return "invalid JSON" }
    defer { yajl_free_error(handle, text) }
    let message = String(cString: text).trimmingJSONSpace()
    return message.isEmpty ? "invalid JSON" : message
  }

  /// yajl's context pointer leads here, not retained by it: the parser holds the box. The box
  /// holds the handler (which knows nothing of the parser) with a `let`, which a callback can
  /// borrow without a retain.
  private final class HandlerBox {
    let handler: any JSONEventHandler
    /// The strings read before yajl, which its string and key callbacks resolve.
    let bypass = JSONStringBypass()
    init(_ handler: any JSONEventHandler) { self.handler = handler }
  }

  /// Calls `event` on the handler behind yajl's context pointer, for one callback, without
  /// retaining the box or the handler: yajl calls back only from inside `push` and `finish`,
  /// while the parser holds both. Taken retained (`takeUnretainedValue` and an `unowned`
  /// load), every key and value cost four reference-count operations, about 60 an item of a
  /// JSON Feed, two fifths of all its parsing thread made.
  @inline(__always)
  private static func withHandler(
    _ context: UnsafeMutableRawPointer?, _ event: (any JSONEventHandler) -> Bool
  ) -> Int32 {
    Unmanaged<HandlerBox>.fromOpaque(context!)._withUnsafeGuaranteedRef { event($0.handler) }
      ? 1 : 0
  }

  /// `withHandler` for a string or key, with the string that yajl's placeholder stands for.
  @inline(__always)
  private static func withString(
    _ context: UnsafeMutableRawPointer?, _ bytes: UnsafeBufferPointer<UInt8>,
    _ event: (any JSONEventHandler, UnsafeBufferPointer<UInt8>, Bool) -> Bool
  ) -> Int32 {
    Unmanaged<HandlerBox>.fromOpaque(context!)._withUnsafeGuaranteedRef { box in
      box.bypass.resolve(bytes) { event(box.handler, $0, $1) }
    } ? 1 : 0
  }

  private static func buffer(_ bytes: UnsafePointer<UInt8>?, _ count: Int)
    -> UnsafeBufferPointer<UInt8>
  {
    UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count)
  }

  /// yajl keeps the pointer it is given, not a copy of the table, for the handle's whole life:
  /// the table lives as long as the process. Written once, then only read.
  nonisolated(unsafe) private static let callbackTable: UnsafePointer<yajl_callbacks> = {
    let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
    table.initialize(to: callbacks)
    return UnsafePointer(table)
  }()

  private static let callbacks: yajl_callbacks = {
    var callbacks = yajl_callbacks()
    callbacks.yajl_null = { context in withHandler(context) { $0.jsonNull() } }
    callbacks.yajl_boolean = { context, value in
      withHandler(context) { $0.jsonBool(value != 0) }
    }
    callbacks.yajl_number = { context, text, count in
      let bytes = UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self)
      return withHandler(context) { $0.jsonNumber(buffer(bytes, count)) }
    }
    callbacks.yajl_string = { context, bytes, count in
      withString(context, buffer(bytes, count)) { $0.jsonString($1, mayHoldControls: $2) }
    }
    callbacks.yajl_start_map = { context in withHandler(context) { $0.jsonStartObject() } }
    callbacks.yajl_map_key = { context, bytes, count in
      withString(context, buffer(bytes, count)) { handler, key, _ in handler.jsonKey(key) }
    }
    callbacks.yajl_end_map = { context in withHandler(context) { $0.jsonEndObject() } }
    callbacks.yajl_start_array = { context in withHandler(context) { $0.jsonStartArray() } }
    callbacks.yajl_end_array = { context in withHandler(context) { $0.jsonEndArray() } }
    return callbacks
  }()
}

@available(*, unavailable)
extension YAJLPushParser: Sendable {}

extension String {
  /// yajl ends its messages with a newline.
  fileprivate func trimmingJSONSpace() -> String {
    var scalars = Substring(self)
    while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
    return String(scalars)
  }
}
