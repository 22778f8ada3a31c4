// An embedder that writes `import FeedPull` can name every type a record carries (`FeedItem`,
// `FeedChannel`, `FeedDate`, …) without depending on the parser's target.
@_exported import FeedModel
