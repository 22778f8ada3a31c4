// swift-tools-version: 6.0
// FeedKit (Swift's best-known feed parser) as a peer in the parse benchmark. Its code is not part
// of this repository: bench/run builds this package only when a checkout of FeedKit sits at
// bench/out/FeedKit (FEEDKIT_PATH overrides). The folder is not named `feedkit`: SwiftPM would
// take it for the FeedKit package itself (both identities would be `feedkit`)., and skips the peer otherwise.
import Foundation
import PackageDescription

let feedKitPath = ProcessInfo.processInfo.environment["FEEDKIT_PATH"] ?? "../../out/FeedKit"

let package = Package(
  name: "feedkit-jsonl",
  platforms: [.macOS(.v13)],
  dependencies: [.package(path: feedKitPath)],
  targets: [
    .executableTarget(
      name: "feedkit-jsonl", dependencies: [.product(name: "FeedKit", package: "FeedKit")])
  ],
  swiftLanguageModes: [.v6]
)
