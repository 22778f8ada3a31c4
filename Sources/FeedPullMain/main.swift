import FeedPullCLI

#if canImport(Glibc)
  import Glibc
#endif

// `feedpull`: everything it does is in the FeedPullCLI library, where the tests reach it.
exit(FeedpullCommand.main(Array(CommandLine.arguments.dropFirst())))
