import Foundation

/// The host a Retry-After hold applies to. For now the URL's lower-cased host name; the
/// registrable domain (eTLD+1) is the host the politeness rules mean, and this one function is
/// where that rule goes in.
public enum SubscriptionHost {
  public static func key(forURL url: String) -> String {
    URLComponents(string: url)?.host?.lowercased() ?? url
  }
}
