// A minimal libcurl HTTP client for the providers: POST a body, read a
// bounded reply, within a time limit. Easy handles are pooled per client,
// so keep-alive connections are reused across calls and threads.
#ifndef SCAMCHECK_PROVIDERS_HTTP_CLIENT_H_
#define SCAMCHECK_PROVIDERS_HTTP_CLIENT_H_

#include <mutex>
#include <string>
#include <vector>

#include "scamcheck/status.h"

namespace scamcheck::internal {

struct HttpResponse {
  long status = 0;  // HTTP status code
  std::string body;
};

struct HttpRequest {
  std::string url;
  std::string body;
  std::vector<std::string> headers;  // "Name: value"
  int timeout_ms = 8'000;            // the whole exchange
  int connect_timeout_ms = 3'000;
  std::size_t max_reply_bytes = std::size_t{1} << 20;
};

// Thread-safe. Errors never contain header values (they may hold keys):
// kDeadlineExceeded for a timeout, kUnavailable for a connection failure,
// kResourceExhausted for a reply over max_reply_bytes.
class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  Result<HttpResponse> post(const HttpRequest& request) const;

 private:
  void* acquire() const;  // a CURL*
  void release(void* handle) const;

  mutable std::mutex mutex_;
  mutable std::vector<void*> idle_;
};

// `s` with the characters of application/x-www-form-urlencoded escaped.
std::string form_escape(std::string_view s);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_HTTP_CLIENT_H_
