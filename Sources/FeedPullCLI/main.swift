import FeedPull

print("feedpull")
