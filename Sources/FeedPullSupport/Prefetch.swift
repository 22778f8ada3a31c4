import CFeedPullShims

/// Brings the cache line at `address` in for a write that comes soon (a hash table's slot, a
/// few inserts ahead), so that random reads into a large table overlap instead of each
/// stalling in turn. A hint: it changes no value and never faults.
@inlinable @inline(__always)
package func prefetchForWrite(_ address: UnsafeRawPointer) {
  fp_prefetch_for_write(address)
}
