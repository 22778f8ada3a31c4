#define _GNU_SOURCE
#include "CFeedPullShims.h"
#include <pthread.h>
#include <string.h>

void fp_set_thread_name(const char *name) {
  char shortened[16];
  strncpy(shortened, name, sizeof shortened - 1);
  shortened[sizeof shortened - 1] = '\0';
  pthread_setname_np(pthread_self(), shortened);
}
