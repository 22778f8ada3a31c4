import CYAJL

/// What a JSON push parser reports, in document order. Strings and keys point into memory that
/// is valid only during the call. Returning false stops the parse (the handler has decided).
protocol JSONEventHandler: AnyObject {
  func jsonNull() -> Bool
  func jsonBool(_ value: Bool) -> Bool
  /// A number as the document writes it (yajl never rounds it).
  func jsonNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool
  func jsonString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool
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
/// Strings are checked to be UTF-8 (yajl's default), so what the handler receives is valid.
final class YAJLPushParser {
  /// Why the parse stopped, when it did.
  enum Stop: Equatable {
    /// The text is not JSON, or it ended before its value did; yajl's message.
    case syntax(String)
    /// The handler returned false.
    case handler
  }

  private var handle: yajl_handle?
  private let handler: any JSONEventHandler
  /// Boxed so that yajl's context pointer stays valid while the parser lives.
  private let box: HandlerBox
  private(set) var stop: Stop?

  init?(handler: any JSONEventHandler) {
    self.handler = handler
    box = HandlerBox(handler)
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
    let status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count)
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

  /// yajl's context pointer leads here; the handler is not retained by it.
  private final class HandlerBox {
    unowned let handler: any JSONEventHandler
    init(_ handler: any JSONEventHandler) { self.handler = handler }
  }

  private static func handler(_ context: UnsafeMutableRawPointer?) -> any JSONEventHandler {
    Unmanaged<HandlerBox>.fromOpaque(context!).takeUnretainedValue().handler
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
    callbacks.yajl_null = { context in handler(context).jsonNull() ? 1 : 0 }
    callbacks.yajl_boolean = { context, value in handler(context).jsonBool(value != 0) ? 1 : 0 }
    callbacks.yajl_number = { context, text, count in
      let bytes = UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self)
      return handler(context).jsonNumber(buffer(bytes, count)) ? 1 : 0
    }
    callbacks.yajl_string = { context, bytes, count in
      handler(context).jsonString(buffer(bytes, count)) ? 1 : 0
    }
    callbacks.yajl_start_map = { context in handler(context).jsonStartObject() ? 1 : 0 }
    callbacks.yajl_map_key = { context, bytes, count in
      handler(context).jsonKey(buffer(bytes, count)) ? 1 : 0
    }
    callbacks.yajl_end_map = { context in handler(context).jsonEndObject() ? 1 : 0 }
    callbacks.yajl_start_array = { context in handler(context).jsonStartArray() ? 1 : 0 }
    callbacks.yajl_end_array = { context in handler(context).jsonEndArray() ? 1 : 0 }
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
