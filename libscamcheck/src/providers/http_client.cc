#include "providers/http_client.h"

#include <curl/curl.h>

#include <memory>

namespace scamcheck::internal {
namespace {

// Idle handles kept for reuse; more are created when needed.
constexpr std::size_t kMaxIdleHandles = 64;

void init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct ReadState {
  std::string* body;
  std::size_t limit;
  bool too_large = false;
};

std::size_t on_data(char* data, std::size_t size, std::size_t count, void* user) {
  auto* state = static_cast<ReadState*>(user);
  const std::size_t n = size * count;
  if (state->body->size() + n > state->limit) {
    state->too_large = true;
    return 0;  // aborts the transfer
  }
  state->body->append(data, n);
  return n;
}

struct SlistFree {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

}  // namespace

HttpClient::HttpClient() { init_curl_once(); }

HttpClient::~HttpClient() {
  for (void* h : idle_) curl_easy_cleanup(static_cast<CURL*>(h));
}

void* HttpClient::acquire() const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      void* h = idle_.back();
      idle_.pop_back();
      return h;
    }
  }
  return curl_easy_init();
}

void HttpClient::release(void* handle) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.size() < kMaxIdleHandles) {
      idle_.push_back(handle);
      return;
    }
  }
  curl_easy_cleanup(static_cast<CURL*>(handle));
}

Result<HttpResponse> HttpClient::post(const HttpRequest& request) const {
  CURL* h = static_cast<CURL*>(acquire());
  if (h == nullptr) return Status::internal("curl_easy_init failed");
  curl_easy_reset(h);  // keeps the connection cache

  curl_slist* list = nullptr;
  for (const std::string& line : request.headers) {
    curl_slist* next = curl_slist_append(list, line.c_str());
    if (next == nullptr) {
      curl_slist_free_all(list);
      release(h);
      return Status::internal("curl_slist_append failed");
    }
    list = next;
  }
  const std::unique_ptr<curl_slist, SlistFree> headers(list);
  HttpResponse response;
  ReadState state{&response.body, request.max_reply_bytes};
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_ms));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.connect_timeout_ms));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM, thread-safe
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_data);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &state);
  const CURLcode rc = curl_easy_perform(h);
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
  release(h);

  if (state.too_large) {
    return Status::resource_exhausted("reply larger than " +
                                      std::to_string(request.max_reply_bytes) + " bytes");
  }
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    return Status::deadline_exceeded("no complete reply within " +
                                     std::to_string(request.timeout_ms) + " ms");
  }
  if (rc != CURLE_OK) return Status::unavailable(std::string("HTTP: ") + curl_easy_strerror(rc));
  return response;
}

std::string form_escape(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out.push_back(ch);
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

}  // namespace scamcheck::internal
