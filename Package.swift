// swift-tools-version: 6.0
import PackageDescription

/// Layers, bottom to top: C modules and FeedModel (the values a feed yields) → HTTPWorker (bytes
/// and HTTP) and FeedParser (XML and feeds)
/// → FeedPull (the pipeline that joins them, and the embedding API) → FeedPullCLI (`feedpull`).
let package = Package(
  name: "feedpull",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "feedpull", targets: ["FeedPullCLI"]),
    .library(name: "FeedPull", targets: ["FeedPull"]),
    .library(name: "Subscriptions", targets: ["Subscriptions"]),
  ],
  targets: [
    .systemLibrary(
      name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(
      name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "CFeedPullShims", dependencies: ["CCurl", "CLibXML2"]),
    .target(name: "FeedModel"),
    .target(name: "FeedParser", dependencies: ["FeedModel", "CLibXML2", "CFeedPullShims"]),
    .target(name: "HTTPWorker", dependencies: ["CCurl", "CFeedPullShims"]),
    .target(name: "FeedPull", dependencies: ["FeedModel", "FeedParser", "HTTPWorker"]),
    .target(name: "Subscriptions", dependencies: ["FeedPull", "HTTPWorker", "CSQLite"]),
    .executableTarget(
      name: "FeedPullCLI", dependencies: ["FeedPull", "HTTPWorker", "Subscriptions"]),
    .target(
      name: "TestSupport", dependencies: ["FeedPull"], path: "Tests/TestSupport"),
    .testTarget(name: "FeedParserTests", dependencies: ["FeedParser", "TestSupport"]),
    .testTarget(name: "HTTPWorkerTests", dependencies: ["HTTPWorker", "TestSupport"]),
    .testTarget(name: "FeedPullTests", dependencies: ["FeedPull", "TestSupport"]),
    .testTarget(
      name: "SubscriptionsTests", dependencies: ["Subscriptions", "FeedPull", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
