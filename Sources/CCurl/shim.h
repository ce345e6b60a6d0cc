// libcurl for ReckonAppStore's HTTP transport. curl_easy_setopt and curl_easy_getinfo are C
// variadic functions, which Swift cannot call, so each argument type gets a typed wrapper here.
#include <curl/curl.h>

/// The write and header callbacks' signature.
typedef size_t (*reckon_curl_data_callback)(char *data, size_t size, size_t count, void *context);
/// The transfer-progress callback's signature; a nonzero return aborts the transfer.
typedef int (*reckon_curl_progress_callback)(
    void *context, curl_off_t downloadTotal, curl_off_t downloaded, curl_off_t uploadTotal,
    curl_off_t uploaded);

static inline CURLcode reckon_curl_global_init(void) {
  return curl_global_init(CURL_GLOBAL_DEFAULT);
}

static inline CURLcode reckon_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode reckon_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode reckon_curl_setopt_string(
    CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode reckon_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode reckon_curl_setopt_slist(
    CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode reckon_curl_setopt_data_callback(
    CURL *handle, CURLoption option, reckon_curl_data_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode reckon_curl_setopt_progress_callback(
    CURL *handle, reckon_curl_progress_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/// Only http and https, whatever a URL (or a redirect, were one followed) names.
static inline CURLcode reckon_curl_allow_http_only(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
  return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

static inline CURLcode reckon_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}
