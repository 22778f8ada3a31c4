import CPQ

#if canImport(Glibc)
  import Glibc
#endif

/// libpq's functions, loaded with `dlopen` the first time a PostgreSQL state is opened rather
/// than linked: linked, the library and its relocations cost every run of feedpull about 1.2 ms
/// of CPU time at start-up (bench/README.md), and most runs keep their state in SQLite or keep
/// none. The binary then also starts on a machine without libpq, and says what is missing only
/// when a `postgresql://` state is named. The types and constants still come from libpq's header
/// (`CPQ`, which no longer links the library); each field's type is its function's declaration
/// in libpq-fe.h, in Swift's terms.
struct LibPQ: @unchecked Sendable {
  let connectdb: @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
  let status: @convention(c) (OpaquePointer?) -> ConnStatusType
  let finish: @convention(c) (OpaquePointer?) -> Void
  let reset: @convention(c) (OpaquePointer?) -> Void
  let errorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
  let exec: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
  let execParams:
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?,
      UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> OpaquePointer?
  let resultStatus: @convention(c) (OpaquePointer?) -> ExecStatusType
  let clear: @convention(c) (OpaquePointer?) -> Void
  let ntuples: @convention(c) (OpaquePointer?) -> Int32
  let cmdTuples: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
  let getisnull: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
  let getvalue: @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
  let getlength: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32

  /// The library's file name: Debian's libpq5 (the ABI version libpq has kept since 2006).
  static let fileName = "libpq.so.5"

  /// Loaded once, by the first store that needs it; the same answer for every later one.
  static let loaded: Result<LibPQ, StoreError> = load()

  private static func load() -> Result<LibPQ, StoreError> {
    guard let library = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "not found"
      return .failure(
        StoreError(
          message: "a PostgreSQL state needs libpq (\(fileName), Debian's libpq5): \(reason)"))
    }
    let names = [
      "PQconnectdb", "PQstatus", "PQfinish", "PQreset", "PQerrorMessage", "PQexec",
      "PQexecParams", "PQresultStatus", "PQclear", "PQntuples", "PQcmdTuples", "PQgetisnull",
      "PQgetvalue", "PQgetlength",
    ]
    // Each looked up once; a name libpq lacks is reported with the others, and the library is
    // then not used at all.
    var addresses: [String: UnsafeMutableRawPointer] = [:]
    for name in names { addresses[name] = dlsym(library, name) }
    let missing = names.filter { addresses[$0] == nil }
    guard missing.isEmpty else {
      dlclose(library)
      return .failure(
        StoreError(message: "\(fileName) lacks \(missing.joined(separator: ", "))"))
    }
    // Each as the type its field declares (libpq-fe.h's, in Swift's terms).
    func symbol<Function>(_ name: String) -> Function {
      unsafeBitCast(addresses[name]!, to: Function.self)
    }
    return .success(
      LibPQ(
        connectdb: symbol("PQconnectdb"), status: symbol("PQstatus"), finish: symbol("PQfinish"),
        reset: symbol("PQreset"), errorMessage: symbol("PQerrorMessage"), exec: symbol("PQexec"),
        execParams: symbol("PQexecParams"), resultStatus: symbol("PQresultStatus"),
        clear: symbol("PQclear"), ntuples: symbol("PQntuples"), cmdTuples: symbol("PQcmdTuples"),
        getisnull: symbol("PQgetisnull"), getvalue: symbol("PQgetvalue"),
        getlength: symbol("PQgetlength")))
  }
}
