import Foundation
import TestSupport
import Testing

extension NetworkPolicyEndToEnd {
  /// Real TLS on loopback: the `feedpull` binary against Python `ssl` servers whose certificates
  /// come from a CA made at run time, so nothing of the machine's own trust is involved.
  @Suite struct TLSTrustTests {
    /// The CA variables curl's command reads: every run starts without them, so that a test
    /// machine's own settings cannot make a test pass.
    static let caVariables = ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"]

    /// Runs `feedpull arguments…` with exactly `environment` of the CA variables set.
    static func run(
      _ arguments: [String], environment: [String: String] = [:]
    ) throws -> FeedpullProcess.Result {
      let unset = caVariables.flatMap { ["-u", $0] }
      let set = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      return try FeedpullProcess.run(
        executable: URL(fileURLWithPath: "/usr/bin/env"),
        unset + set + [FeedpullProcess.binary.path, "-f", "jsonl"] + arguments)
    }

    static func feedServer(_ certificate: TestCertificates.Pair) throws -> LoopbackScriptServer {
      try LoopbackScriptServer(
        routes: ["/feed.xml": .ok(rssFeed(items: 2))], certificate: certificate)
    }

    static func end(_ result: FeedpullProcess.Result) -> [String: any Sendable]? {
      result.records.last { $0["type"] as? String == "end" }
    }

    static func errorKind(_ result: FeedpullProcess.Result) -> String? {
      (end(result)?["error"] as? [String: Any])?["kind"] as? String
    }

    @Test func aServerSignedByAnUnknownCAFailsWithTLS() throws {
      let server = try Self.feedServer(TestCertificates.make().server)
      let result = try Self.run([server.url("/feed.xml")])
      #expect(result.status == 1)
      #expect(Self.errorKind(result) == "tls", "\(result.stdout)")
      #expect(result.records.filter { $0["type"] as? String == "item" }.isEmpty)
    }

    @Test(arguments: ["--cacert", "--capath"])
    func cacertAndCapathTrustThePrivateCA(_ option: String) throws {
      let certificates = try TestCertificates.make()
      let server = try Self.feedServer(certificates.server)
      let store = option == "--cacert" ? certificates.caFile : certificates.caDirectory
      let result = try Self.run([option, store, server.url("/feed.xml")])
      #expect(result.status == 0, "\(option): \(result.stdout) \(result.stderr)")
      #expect(Self.end(result)?["items"] as? Int == 2)
    }

    @Test(arguments: ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"])
    func eachOfCurlsVariablesIsHonoured(_ variable: String) throws {
      let certificates = try TestCertificates.make()
      let server = try Self.feedServer(certificates.server)
      let value = variable == "SSL_CERT_DIR" ? certificates.caDirectory : certificates.caFile
      let result = try Self.run([server.url("/feed.xml")], environment: [variable: value])
      #expect(result.status == 0, "\(variable): \(result.stdout) \(result.stderr)")
      #expect(Self.end(result)?["items"] as? Int == 2)
    }

    @Test func theVariablesTakeCurlsOrderAndTheOptionsWinOverThem() throws {
      let certificates = try TestCertificates.make()
      let server = try Self.feedServer(certificates.server)
      // CURL_CA_BUNDLE first: SSL_CERT_FILE is then not read at all.
      let bundleFirst = try Self.run(
        [server.url("/feed.xml")],
        environment: [
          "CURL_CA_BUNDLE": "/nonexistent/ca.pem", "SSL_CERT_FILE": certificates.caFile,
        ])
      #expect(Self.errorKind(bundleFirst) == "tls")
      // SSL_CERT_DIR before SSL_CERT_FILE.
      let directoryFirst = try Self.run(
        [server.url("/feed.xml")],
        environment: ["SSL_CERT_DIR": "/nonexistent", "SSL_CERT_FILE": certificates.caFile])
      #expect(Self.errorKind(directoryFirst) == "tls")
      // --cacert replaces whatever the environment says.
      let option = try Self.run(
        ["--cacert", certificates.caFile, server.url("/feed.xml")],
        environment: ["CURL_CA_BUNDLE": "/nonexistent/ca.pem"])
      #expect(option.status == 0, "\(option.stdout)")
    }

    @Test func cacertIsTheWholeStoreNotAnAddition() throws {
      // The environment names a directory that would trust the server; --cacert names another
      // CA. Were the file added to what else is trusted, the pull would pass.
      let certificates = try TestCertificates.make()
      let server = try Self.feedServer(certificates.server)
      let other = try TestTool.temporaryDirectory("feedpull-other-ca")
      try TestTool.run(
        "openssl",
        [
          "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
          "-keyout", other + "/ca.key", "-out", other + "/ca.pem", "-subj", "/CN=other",
          "-days", "1",
        ])
      let result = try Self.run(
        ["--cacert", other + "/ca.pem", server.url("/feed.xml")],
        environment: ["SSL_CERT_DIR": certificates.caDirectory])
      #expect(Self.errorKind(result) == "tls", "\(result.stdout)")
    }

    @Test func aCertificateForAnotherNameFailsWithTLS() throws {
      let certificates = try TestCertificates.make()
      let server = try Self.feedServer(certificates.wrongName)
      let result = try Self.run(["--cacert", certificates.caFile, server.url("/feed.xml")])
      #expect(Self.errorKind(result) == "tls", "\(result.stdout)")
    }

    @Test func anExpiredCertificateFailsWithTLS() throws {
      let certificates = try TestCertificates.make()
      let server = try Self.feedServer(certificates.expired)
      let result = try Self.run(["--cacert", certificates.caFile, server.url("/feed.xml")])
      #expect(Self.errorKind(result) == "tls", "\(result.stdout)")
      let message = (Self.end(result)?["error"] as? [String: Any])?["message"] as? String ?? ""
      #expect(message.contains("expired"), "\(message)")
    }

    @Test func insecureSkipsVerificationAndWarnsOncePerRun() throws {
      let certificates = try TestCertificates.make()
      let expired = try Self.feedServer(certificates.expired)
      let wrongName = try Self.feedServer(certificates.wrongName)
      let result = try Self.run(["-k", expired.url("/feed.xml"), wrongName.url("/feed.xml")])
      #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
      #expect(result.records.filter { $0["type"] as? String == "item" }.count == 4)
      let warnings = result.stderr.split(separator: "\n").filter { $0.contains("--insecure") }
      #expect(warnings.count == 1, "\(result.stderr)")
      // -q silences it, as it does every other line on stderr.
      let quiet = try Self.run(["-k", "-q", expired.url("/feed.xml")])
      #expect(quiet.stderr.isEmpty)
    }
  }
}
