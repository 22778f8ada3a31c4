import FeedPull
import HTTPWorker

extension ConnectionWorker.Configuration {
  /// Every test server is one politeness host (127.0.0.1): tests that are not about politeness
  /// lift the per-host cap and the delay between request starts, which would otherwise make a
  /// test of 200 transfers take 200 seconds.
  public static var forLoopbackTests: Self {
    var configuration = Self()
    configuration.maxPerHost = configuration.maxInFlight
    configuration.hostDelay = .zero
    return configuration
  }
}

extension FeedPuller.Configuration {
  /// See `ConnectionWorker.Configuration.forLoopbackTests`.
  public static var forLoopbackTests: Self {
    var configuration = Self()
    configuration.maxTransfersPerHost = 1_000
    configuration.hostDelay = .zero
    return configuration
  }
}
