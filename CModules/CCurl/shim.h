// The libcurl API previewd's HTTP client uses. curl_easy_setopt and curl_easy_getinfo are variadic,
// which Swift cannot call: one typed shim per argument type.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>
#include <netinet/in.h>
#include <string.h>

/// The body and header callbacks' shape (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

/// curl_easy_setopt with a long (flags, counts, milliseconds).
static inline CURLcode ccurl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
/// curl_easy_setopt with a string (libcurl copies it).
static inline CURLcode ccurl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
/// curl_easy_setopt with a pointer (user data, error buffer, header list).
static inline CURLcode ccurl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}
/// curl_easy_setopt with a body or header callback.
static inline CURLcode ccurl_set_callback(CURL *easy, CURLoption option, ccurl_data_callback value) {
    return curl_easy_setopt(easy, option, value);
}
/// The shape of CURLOPT_OPENSOCKETFUNCTION's callback: returns the new socket, or
/// CURL_SOCKET_BAD to refuse the connection.
typedef curl_socket_t (*ccurl_opensocket_callback)(void *context, curlsocktype purpose, struct curl_sockaddr *address);

/// curl_easy_setopt with the open-socket callback (every connection's address passes through it).
static inline CURLcode ccurl_set_opensocket(CURL *easy, ccurl_opensocket_callback value) {
    return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, value);
}

/// Copies the IP address of `address` into `bytes` (room for 16): returns 4 for IPv4, 16 for IPv6,
/// 0 for any other family.
static inline int ccurl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char *bytes) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        memcpy(bytes, &((const struct sockaddr_in *)&address->addr)->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        memcpy(bytes, &((const struct sockaddr_in6 *)&address->addr)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/// The shape of CURLOPT_PREREQFUNCTION's callback: called once a connection is ready, before the
/// request goes out on it; returns CURL_PREREQFUNC_OK.
typedef int (*ccurl_prereq_callback)(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port);

/// curl_easy_setopt with the pre-request callback.
static inline CURLcode ccurl_set_prereq(CURL *easy, ccurl_prereq_callback value) {
    return curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, value);
}

/// curl_share_setopt with a long (what to share: CURL_LOCK_DATA_DNS, CURL_LOCK_DATA_SSL_SESSION…).
static inline CURLSHcode ccurl_share_set_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

/// The folder of hashed CA certificates libcurl was built to trust (Debian: /etc/ssl/certs); NULL if none.
static inline const char *ccurl_default_capath(void) {
    return curl_version_info(CURLVERSION_NOW)->capath;
}

/// curl_multi_setopt with a long.
static inline CURLMcode ccurl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
/// curl_easy_getinfo of a long (response code).
static inline long ccurl_info_long(CURL *easy, CURLINFO info) {
    long value = 0;
    return curl_easy_getinfo(easy, info, &value) == CURLE_OK ? value : 0;
}
/// curl_easy_getinfo of a size (content length); -1 when unknown.
static inline curl_off_t ccurl_info_offset(CURL *easy, CURLINFO info) {
    curl_off_t value = -1;
    return curl_easy_getinfo(easy, info, &value) == CURLE_OK ? value : -1;
}
/// curl_easy_getinfo of a string owned by the handle (content type, redirect URL); NULL when absent.
static inline const char *ccurl_info_string(CURL *easy, CURLINFO info) {
    char *value = NULL;
    return curl_easy_getinfo(easy, info, &value) == CURLE_OK ? value : NULL;
}
/// curl_easy_getinfo of the user pointer set with CURLOPT_PRIVATE.
static inline void *ccurl_info_private(CURL *easy) {
    void *value = NULL;
    return curl_easy_getinfo(easy, CURLINFO_PRIVATE, &value) == CURLE_OK ? value : NULL;
}

#endif
