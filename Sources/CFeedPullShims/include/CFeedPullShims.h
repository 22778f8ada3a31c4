// Typed doors to C that Swift cannot call directly: libcurl's variadic setopt/getinfo,
// <sys/epoll.h> and pthread_setname_np, which Glibc's Swift overlay does not export.
#ifndef CFEEDPULL_SHIMS_H
#define CFEEDPULL_SHIMS_H

#include <curl/curl.h>
#include <stdint.h>
#include <sys/epoll.h>

// curl_easy_setopt, one wrapper per argument type.
CURLcode fp_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode fp_easy_setopt_str(CURL *easy, CURLoption option, const char *value);
CURLcode fp_easy_setopt_ptr(CURL *easy, CURLoption option, void *value);
CURLcode fp_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value);
CURLcode fp_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback cb);

CURLcode fp_easy_setopt_opensocket_callback(CURL *easy, curl_opensocket_callback cb);

// curl_easy_getinfo, one wrapper per result type.
CURLcode fp_easy_getinfo_long(CURL *easy, CURLINFO info, long *out);
CURLcode fp_easy_getinfo_str(CURL *easy, CURLINFO info, const char **out);

// curl_multi_setopt, one wrapper per argument type.
CURLMcode fp_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode fp_multi_setopt_ptr(CURLM *multi, CURLMoption option, void *value);
CURLMcode fp_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback cb);
CURLMcode fp_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback cb);

// A share handle for TLS sessions, used by one thread (no lock callbacks).
CURLSHcode fp_share_ssl_sessions(CURLSH *share);

// The address curl is about to connect to: copies its 4 (IPv4) or 16 (IPv6) bytes into `out`
// and returns how many; 0 for another family.
int fp_sockaddr_bytes(const struct curl_sockaddr *address, uint8_t out[16]);
// What curl's own open-socket step does (socket(2) with the address's family, type and
// protocol), close-on-exec; CURL_SOCKET_BAD on failure.
curl_socket_t fp_open_socket(const struct curl_sockaddr *address);

// The CURLMsg union is not importable as a field; read it here.
CURLcode fp_msg_result(const CURLMsg *msg);

// epoll, with the event's data as a plain int (the fd).
int fp_epoll_create(void);
int fp_epoll_ctl(int epfd, int op, int fd, uint32_t events);
int fp_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout_ms);

// Names the calling thread (at most 15 bytes are kept), for `top -H`, gdb and backtraces.
void fp_set_thread_name(const char *name);

// ThreadSanitizer annotations; no-ops unless the TSan runtime is linked in. Swift's
// Synchronization.Mutex hands a contended lock over inside the kernel (a PI futex), which TSan
// cannot see, so it reports races between critical sections of one Mutex. These calls tell it
// about the happens-before edge the Mutex really provides.
void fp_tsan_acquire(void *address);
void fp_tsan_release(void *address);

// Asks the processor to bring the cache line at `address` in, for a write soon: a hash table's
// inserts look their slots up a few names ahead, so that the random reads overlap.
static inline void fp_prefetch_for_write(const void *address) {
  __builtin_prefetch(address, 1, 3);
}

#endif
