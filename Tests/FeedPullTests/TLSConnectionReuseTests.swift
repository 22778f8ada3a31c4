import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension NetworkPolicyEndToEnd {
  /// What HTTPS costs: transfers to one origin share one HTTP/2 connection, a new connection
  /// resumes the TLS session of an earlier one, and the CA file is read once per process, not
  /// once per connection. Counted where it happens: in nginx's access log and by inotify on the
  /// CA file.
  @Suite struct TLSConnectionReuseTests {
    static func corpus(_ nginx: NginxServer, count: Int) throws -> String {
      var urls: [String] = []
      for index in 0..<count {
        try nginx.serve("f\(index).xml", rssFeed(items: 2, title: "Feed \(index)", from: index * 2))
        urls.append(nginx.url("/f\(index).xml"))
      }
      let list = try TestTool.temporaryDirectory("feedpull-h2") + "/urls.txt"
      try urls.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
      return list
    }

    @Test func twoHundredFeedsOverHTTP2ShareOneConnection() throws {
      let certificates = try TestCertificates.make()
      let nginx = try NginxServer(certificate: certificates.server)
      let list = try Self.corpus(nginx, count: 200)
      let perSite = 8
      let result = try FeedpullProcess.run(
        [
          "-f", "jsonl", "-j", "8", "--per-host", String(perSite), "--host-delay", "0",
          "--cacert", certificates.caFile, "-i", list,
        ], deadline: 120)
      #expect(result.status == 0, "\(result.stderr.suffix(2000))")
      #expect(result.records.filter { $0["type"] as? String == "item" }.count == 400)
      nginx.stop()  // flushes the log
      let log = nginx.log
      #expect(log.count == 200)
      #expect(log.allSatisfy { $0.httpProtocol == "HTTP/2.0" })
      let connections = Set(log.map(\.connection))
      // Within the per-site limit, and in fact one: transfers started while the first
      // connection was still in its handshake waited for it (CURLOPT_PIPEWAIT) instead of each
      // opening its own.
      #expect(connections.count <= perSite)
      #expect(connections.count == 1, "connections: \(connections.count)")
    }

    @Test func newConnectionsResumeTheTLSSession() throws {
      let certificates = try TestCertificates.make()
      // No keep-alive: every request is a new connection, and a new TLS handshake. Over
      // HTTP/1.1: nginx 1.22 ends an HTTP/2 connection without keep-alive in a way that leaves
      // its session unresumable for any client (curl's command alike).
      let nginx = try NginxServer(certificate: certificates.server, http2: false, keepAlive: false)
      let list = try Self.corpus(nginx, count: 6)
      let result = try FeedpullProcess.run(
        [
          "-f", "jsonl", "-j", "1", "--host-delay", "0", "--cacert", certificates.caFile, "-i",
          list,
        ])
      #expect(result.status == 0, "\(result.stderr)")
      nginx.stop()
      let log = nginx.log
      #expect(log.count == 6)
      #expect(log.allSatisfy { $0.httpProtocol == "HTTP/1.1" })
      #expect(Set(log.map(\.connection)).count == 6, "\(log)")
      // The first handshake is full; every later one resumes its session.
      #expect(log.first?.sessionReused == ".")
      #expect(log.dropFirst().allSatisfy { $0.sessionReused == "r" }, "\(log)")
    }

    @Test func theCAFileIsReadOncePerProcessNotPerConnection() throws {
      let certificates = try TestCertificates.make()
      let nginx = try NginxServer(certificate: certificates.server, http2: false, keepAlive: false)
      let list = try Self.corpus(nginx, count: 16)
      // A copy of the CA file of this test's own, so that no other test's reads are counted.
      let caFile = try TestTool.temporaryDirectory("feedpull-ca") + "/ca.pem"
      try TestTool.run("cp", [certificates.caFile, caFile])
      let watcher = try FileOpenCounter(path: caFile)
      let result = try FeedpullProcess.run(
        [
          "-f", "jsonl", "-j", "16", "--per-host", "16", "--host-delay", "0", "--cacert", caFile,
          "-i", list,
        ])
      #expect(result.status == 0, "\(result.stderr)")
      nginx.stop()
      // 16 connections (no keep-alive), one read of the CA file.
      #expect(Set(nginx.log.map(\.connection)).count == 16)
      #expect(watcher.opens() == 1)
    }
  }
}

/// Counts the times a file was opened, by inotify (`IN_OPEN`), from creation to `opens()`.
/// Closes are watched too: inotify merges an event into an identical one still unread, so
/// opens alone would count as one; open, close, open, close stay apart.
final class FileOpenCounter {
  private let descriptor: Int32

  init(path: String) throws {
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    let events = UInt32(IN_OPEN) | UInt32(IN_CLOSE_NOWRITE) | UInt32(IN_CLOSE_WRITE)
    guard descriptor >= 0, inotify_add_watch(descriptor, path, events) >= 0 else {
      throw TestToolError("inotify is not available")
    }
  }

  deinit { close(descriptor) }

  /// The opens seen so far (each read drains the queue).
  func opens() -> Int {
    var count = 0
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let length = read(descriptor, &buffer, buffer.count)
      guard length > 0 else { return count }
      var offset = 0
      while offset < length {
        let event = buffer.withUnsafeBytes {
          $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
        }
        if event.mask & UInt32(IN_OPEN) != 0 { count += 1 }
        offset += MemoryLayout<inotify_event>.size + Int(event.len)
      }
    }
  }
}
