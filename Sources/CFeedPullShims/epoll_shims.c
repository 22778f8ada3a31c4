#include "CFeedPullShims.h"
#include <sys/epoll.h>

int fp_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int fp_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
  struct epoll_event ev = {.events = events, .data = {.fd = fd}};
  return epoll_ctl(epfd, op, fd, &ev);
}

int fp_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout_ms) {
  struct epoll_event ready[64];
  if (max > 64) max = 64;
  int n = epoll_wait(epfd, ready, max, timeout_ms);
  for (int i = 0; i < n; i++) {
    fds[i] = ready[i].data.fd;
    events[i] = ready[i].events;
  }
  return n;
}
