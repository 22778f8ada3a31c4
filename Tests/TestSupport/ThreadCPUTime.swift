import Glibc

/// The CPU time the calling thread has used. A guard against quadratic work measures this
/// rather than the wall clock, which a busy host stretches several times over while the work
/// itself stays the same.
public func threadCPUTime() -> Duration {
  var now = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
  return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}
