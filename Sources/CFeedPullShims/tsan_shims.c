#include "CFeedPullShims.h"

// Weak: resolved only when the program is linked with the ThreadSanitizer runtime.
void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));

void fp_tsan_acquire(void *address) {
  if (__tsan_acquire) __tsan_acquire(address);
}

void fp_tsan_release(void *address) {
  if (__tsan_release) __tsan_release(address);
}
