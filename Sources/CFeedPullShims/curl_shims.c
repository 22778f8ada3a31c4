#include "CFeedPullShims.h"

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
