import Foundation

/// A plain TCP connection to a port on 127.0.0.1, for tests that talk to a server below HTTP
/// (waiting for nginx to listen, checking the test server's own sockets).
public enum LoopbackSocket {
  /// A connected socket to 127.0.0.1:`port`, which the caller closes; nil when nothing accepts.
  public static func connect(to port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else {
      close(fd)
      return nil
    }
    return fd
  }
}
