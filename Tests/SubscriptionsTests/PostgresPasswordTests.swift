import Testing

@testable import Subscriptions

/// A PostgreSQL password never reaches a message: not from the URI's user information, not
/// from a `password=` parameter or keyword, not from libpq's own messages, which may quote the
/// connection string.
@Suite struct PostgresPasswordTests {
  @Test(arguments: [
    ("postgresql://feeds:s3cret@db.example/feeds", "postgresql://feeds@db.example/feeds"),
    ("postgresql://feeds:p%40ss@db.example/feeds", "postgresql://feeds@db.example/feeds"),
    ("postgresql:///feeds?host=/tmp", "postgresql:///feeds?host=/tmp"),
    (
      "postgresql://feeds@db/feeds?sslmode=require&password=s3cret",
      "postgresql://feeds@db/feeds?sslmode=require&password=***"
    ),
    (
      "host=db user=feeds password=s3cret dbname=feeds",
      "host=db user=feeds password=*** dbname=feeds"
    ),
    ("host=db password = 'a b\\'c' dbname=feeds", "host=db password = '***' dbname=feeds"),
  ])
  func theConnectionStringIsShownWithoutItsPassword(_ uri: String, _ shown: String) {
    #expect(PostgresConnection.redacted(uri) == shown)
  }

  @Test func libpqsOwnMessagesAreScrubbed() {
    // libpq quotes an invalid percent-encoding whole: `invalid percent-encoded token: "…"`.
    let uri = "postgresql://feeds:se%zzcret@/feeds?host=/nonexistent-feedpull"
    #expect {
      _ = try PostgresSubscriptionStore(uri: uri)
    } throws: { error in
      let message = "\(error)"
      return message.contains("percent-encoded") && !message.contains("zzcret")
    }
    let parameter = "postgresql:///feeds?host=/nonexistent-feedpull&password=s3cret"
    #expect {
      _ = try PostgresSubscriptionStore(uri: parameter)
    } throws: { error in
      !"\(error)".contains("s3cret")
    }
  }
}
