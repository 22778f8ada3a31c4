// swift-tools-version: 6.0
import PackageDescription

/// Layers, bottom to top: C modules, FeedPullSupport (the one lock and the byte-word scans every
/// layer shares) and FeedModel (the values a feed yields) → HTTPWorker (bytes and HTTP) and
/// FeedParser (XML and feeds)
/// → FeedPull (the pipeline that joins them, and the embedding API) → Subscriptions (state
/// between pulls, the schedule, the stores) → FeedPullCLI (`feedpull`).
let package = Package(
  name: "feedpull",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "feedpull", targets: ["FeedPullMain"]),
    .library(name: "FeedPull", targets: ["FeedPull"]),
    .library(name: "Subscriptions", targets: ["Subscriptions"]),
  ],
  targets: [
    .systemLibrary(
      name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(
      name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .systemLibrary(name: "CYAJL", pkgConfig: "yajl", providers: [.apt(["libyajl-dev"])]),
    .target(name: "CFeedPullShims", dependencies: ["CCurl"]),
    .systemLibrary(name: "CPSL", pkgConfig: "libpsl", providers: [.apt(["libpsl-dev"])]),
    .target(name: "FeedPullSupport", dependencies: ["CFeedPullShims"]),
    .target(name: "FeedModel"),
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // libpq's header alone, without pkg-config's `-lpq`: the library is opened when a
    // PostgreSQL state is (Sources/Subscriptions/Store/PostgreSQL/LibPQ.swift).
    .systemLibrary(name: "CPQ", providers: [.apt(["libpq-dev"])]),
    .target(
      name: "FeedParser", dependencies: ["FeedModel", "FeedPullSupport", "CLibXML2", "CYAJL"]),
    .target(
      name: "HTTPWorker", dependencies: ["CCurl", "CPSL", "CFeedPullShims", "FeedPullSupport"]),
    .target(
      name: "FeedPull", dependencies: ["FeedModel", "FeedParser", "HTTPWorker", "FeedPullSupport"]),
    .target(
      name: "Subscriptions",
      dependencies: ["FeedPull", "FeedParser", "FeedPullSupport", "CSQLite", "CPQ"]),
    // The command's code is a library, so that its tests reach the option table and the text
    // renderer without starting a process; the executable only calls it.
    .target(
      name: "FeedPullCLI",
      dependencies: ["FeedParser", "FeedPull", "FeedPullSupport", "Subscriptions"]),
    .executableTarget(name: "FeedPullMain", dependencies: ["FeedPullCLI"]),
    .target(
      name: "TestSupport", dependencies: ["FeedPull", "FeedPullSupport"], path: "Tests/TestSupport"),
    .testTarget(name: "FeedParserTests", dependencies: ["FeedParser", "TestSupport"]),
    .testTarget(
      name: "HTTPWorkerTests", dependencies: ["HTTPWorker", "FeedPullSupport", "TestSupport"]),
    .testTarget(
      name: "FeedPullTests", dependencies: ["FeedPull", "FeedPullSupport", "TestSupport"]),
    // Only `import FeedPull`: the API as a tool that embeds feedpull sees it.
    .testTarget(name: "EmbedderTests", dependencies: ["FeedPull", "TestSupport"]),
    .testTarget(
      name: "SubscriptionsTests",
      dependencies: ["Subscriptions", "FeedPull", "FeedPullSupport", "TestSupport"]),
    .testTarget(
      name: "FeedPullCLITests",
      dependencies: ["FeedPullCLI", "FeedPull", "Subscriptions", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
