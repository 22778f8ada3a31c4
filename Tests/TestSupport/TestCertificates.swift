import FeedPullSupport
import Foundation

/// A throwaway certificate authority and server certificates, made with `openssl` the first
/// time a test asks, in a temporary directory, for the life of the test process: real TLS on
/// loopback without trusting anything of the machine's.
///
/// - `caFile`: the CA's certificate (PEM), what `--cacert` is given.
/// - `caDirectory`: the same CA as a hashed directory (`<hash>.0`), what `--capath` is given.
/// - `server`: valid for 127.0.0.1, 127.0.0.2 and localhost.
/// - `wrongName`: signed by the CA, valid, but only for `wrong.example`.
/// - `expired`: signed by the CA for 127.0.0.1, expired yesterday.
public final class TestCertificates: Sendable {
  /// A certificate and its private key, both PEM files.
  public struct Pair: Sendable {
    public let certificate: String
    public let key: String
  }

  public let directory: String
  public let caFile: String
  public let caDirectory: String
  public let server: Pair
  public let wrongName: Pair
  public let expired: Pair

  private static let shared = TSanVisibleMutex<Result<TestCertificates, TestToolError>?>(nil)

  /// The process's certificates, made on first use. Throws (the test fails with the reason)
  /// when `openssl` is missing or fails: never a silent pass.
  public static func make() throws(TestToolError) -> TestCertificates {
    let result = shared.withLock { cached in
      if let cached { return cached }
      let made = Result { () throws(TestToolError) in try TestCertificates() }
      cached = made
      return made
    }
    return try result.get()
  }

  private init() throws(TestToolError) {
    let directory = try TestTool.temporaryDirectory("feedpull-tls")
    let caFile = directory + "/ca.pem"
    self.directory = directory
    self.caFile = caFile
    let caKey = directory + "/ca.key"
    try TestTool.run(
      "openssl",
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", caKey, "-out", caFile, "-subj", "/CN=feedpull test CA", "-days", "2",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
      ])
    func issue(_ name: String, names: String, days: Int) throws(TestToolError) -> Pair {
      let pair = Pair(
        certificate: "\(directory)/\(name).pem", key: "\(directory)/\(name).key")
      let request = "\(directory)/\(name).csr"
      let extensions = "\(directory)/\(name).ext"
      let text = "subjectAltName=\(names)\nextendedKeyUsage=serverAuth\n"
      guard FileManager.default.createFile(atPath: extensions, contents: Data(text.utf8)) else {
        throw TestToolError("cannot write \(extensions)")
      }
      try TestTool.run(
        "openssl",
        [
          "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
          "-keyout", pair.key, "-out", request, "-subj", "/CN=\(name)",
        ])
      try TestTool.run(
        "openssl",
        [
          "x509", "-req", "-in", request, "-CA", caFile, "-CAkey", caKey, "-CAcreateserial",
          "-out", pair.certificate, "-days", String(days), "-extfile", extensions,
        ])
      return pair
    }
    server = try issue("server", names: "IP:127.0.0.1,IP:127.0.0.2,DNS:localhost", days: 2)
    wrongName = try issue("wrong-name", names: "DNS:wrong.example", days: 2)
    // A negative count puts notAfter in the past (OpenSSL 3.0).
    expired = try issue("expired", names: "IP:127.0.0.1,DNS:localhost", days: -1)
    let caDirectory = directory + "/capath"
    try TestTool.run("mkdir", ["-p", caDirectory])
    let hash = try TestTool.run("openssl", ["x509", "-hash", "-noout", "-in", caFile])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try TestTool.run("cp", [caFile, "\(caDirectory)/\(hash).0"])
    self.caDirectory = caDirectory
  }
}

/// Why a tool a test needs could not run (not installed, or it failed), with its output.
public struct TestToolError: Error, Sendable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// Runs the command-line tools tests need (`openssl`, `nginx`), found on `PATH`.
public enum TestTool {
  /// Runs `tool arguments…` to its end and returns its standard output; throws with its
  /// standard error when it fails.
  @discardableResult
  public static func run(_ tool: String, _ arguments: [String]) throws(TestToolError) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw TestToolError("cannot run \(tool): \(error)")
    }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw TestToolError(
        "\(tool) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): "
          + String(decoding: err, as: UTF8.self))
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A new private directory under /tmp, removed when the test process exits.
  public static func temporaryDirectory(_ prefix: String) throws(TestToolError) -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw TestToolError("cannot make a temporary directory")
    }
    let path = String(cString: made)
    let first = temporaryDirectories.withLock { list in
      list.append(path)
      return list.count == 1
    }
    if first {
      atexit {
        for path in TestTool.temporaryDirectories.withLock({ $0 }) {
          try? FileManager.default.removeItem(atPath: path)
        }
      }
    }
    return path
  }

  private static let temporaryDirectories = TSanVisibleMutex<[String]>([])
}
