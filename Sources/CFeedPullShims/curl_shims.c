#include "CFeedPullShims.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

CURLcode fp_easy_setopt_long(CURL *easy, CURLoption option, long value) {
  return curl_easy_setopt(easy, option, value);
}
CURLcode fp_easy_setopt_str(CURL *easy, CURLoption option, const char *value) {
  return curl_easy_setopt(easy, option, value);
}
CURLcode fp_easy_setopt_ptr(CURL *easy, CURLoption option, void *value) {
  return curl_easy_setopt(easy, option, value);
}
CURLcode fp_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(easy, option, value);
}
CURLcode fp_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback cb) {
  return curl_easy_setopt(easy, option, cb);
}
CURLcode fp_easy_setopt_opensocket_callback(CURL *easy, curl_opensocket_callback cb) {
  return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, cb);
}

CURLcode fp_easy_getinfo_long(CURL *easy, CURLINFO info, long *out) {
  return curl_easy_getinfo(easy, info, out);
}
CURLcode fp_easy_getinfo_str(CURL *easy, CURLINFO info, const char **out) {
  return curl_easy_getinfo(easy, info, out);
}

CURLMcode fp_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}
CURLMcode fp_multi_setopt_ptr(CURLM *multi, CURLMoption option, void *value) {
  return curl_multi_setopt(multi, option, value);
}
CURLMcode fp_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback cb) {
  return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, cb);
}
CURLMcode fp_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback cb) {
  return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, cb);
}

CURLcode fp_msg_result(const CURLMsg *msg) { return msg->data.result; }

CURLSHcode fp_share_ssl_sessions(CURLSH *share) {
  return curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
}

int fp_sockaddr_bytes(const struct curl_sockaddr *address, uint8_t out[16]) {
  // `addr` is the start of a sockaddr_storage-sized area (curl's struct Curl_sockaddr_ex).
  if (address->family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
    memcpy(out, &v4->sin_addr, 4);
    return 4;
  }
  if (address->family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
    memcpy(out, &v6->sin6_addr, 16);
    return 16;
  }
  return 0;
}

curl_socket_t fp_open_socket(const struct curl_sockaddr *address) {
  int fd = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
  return fd < 0 ? CURL_SOCKET_BAD : fd;
}
