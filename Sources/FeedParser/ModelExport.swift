// The parser's events and results are the model's types: whoever imports the parser can name them.
@_exported import FeedModel
