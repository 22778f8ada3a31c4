import FeedPull

extension FeedScheduleHints {
  /// The scheduler's reading of a channel's schedule (day names to weekday numbers).
  init(_ schedule: FeedSchedule) {
    self.init()
    ttlMinutes = schedule.ttl
    skipHours = Set(schedule.skipHours.filter { (0..<24).contains($0) })
    let days = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    skipDays = Set(schedule.skipDays.compactMap { days.firstIndex(of: $0.lowercased()) })
    updatePeriod = schedule.updatePeriod
    updateFrequency = schedule.updateFrequency
  }
}
