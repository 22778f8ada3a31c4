import FeedParser
import HTTPWorker
