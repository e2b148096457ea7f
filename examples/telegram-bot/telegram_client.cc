#include "telegram_client.h"

#include <curl/curl.h>
#include <simdjson.h>

#include <memory>

namespace scamcheck::telegram_bot {
namespace {

struct Sink {
  std::string data;
  std::size_t max_bytes = 0;
  bool overflow = false;
};

std::size_t write_body(char* ptr, std::size_t size, std::size_t nmemb, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const std::size_t n = size * nmemb;
  if (sink->data.size() + n > sink->max_bytes) {
    sink->overflow = true;
    return 0;  // makes curl stop with CURLE_WRITE_ERROR
  }
  sink->data.append(ptr, n);
  return n;
}

using CurlHandle = std::unique_ptr<CURL, void (*)(CURL*)>;
using HeaderList = std::unique_ptr<curl_slist, void (*)(curl_slist*)>;

void common_options(CURL* h, Sink& sink, std::chrono::milliseconds timeout) {
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &write_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(h, CURLOPT_USERAGENT, "scamcheck-telegram-bot");
}

// A relative path of letters, digits and ._-/ with no "." or ".." segment.
bool plain_relative_path(std::string_view path) {
  if (path.empty() || path.size() > 512 || path.front() == '/') return false;
  for (char c : path) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-' || c == '/';
    if (!ok) return false;
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

TelegramClient::TelegramClient(std::string api_base, std::string token,
                               std::chrono::milliseconds timeout)
    : api_base_(std::move(api_base)), token_(std::move(token)), timeout_(timeout) {
  while (!api_base_.empty() && api_base_.back() == '/') api_base_.pop_back();
}

Result<ApiReply> TelegramClient::call(std::string_view method, const std::string& json_body) const {
  CurlHandle curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return Status::internal("curl_easy_init failed");
  HeaderList headers(curl_slist_append(nullptr, "Content-Type: application/json"),
                     &curl_slist_free_all);
  const std::string url = api_base_ + "/bot" + token_ + "/" + std::string(method);
  Sink sink;
  sink.max_bytes = 4 << 20;  // API answers are small; a bigger one is not Telegram's
  CURL* h = curl.get();
  common_options(h, sink, timeout_);
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, json_body.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(json_body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    return Status::unavailable(std::string(method) + ": " + curl_easy_strerror(rc));
  }
  ApiReply reply;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply.http_status);
  reply.body = std::move(sink.data);
  return reply;
}

Result<std::string> TelegramClient::download(std::string_view file_path,
                                             std::size_t max_bytes) const {
  if (!plain_relative_path(file_path)) {
    return Status::invalid_argument("getFile returned an unexpected file_path");
  }
  CurlHandle curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return Status::internal("curl_easy_init failed");
  const std::string url = api_base_ + "/file/bot" + token_ + "/" + std::string(file_path);
  Sink sink;
  sink.max_bytes = max_bytes;
  CURL* h = curl.get();
  common_options(h, sink, timeout_);
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(max_bytes));
  const CURLcode rc = curl_easy_perform(h);
  if (sink.overflow || rc == CURLE_FILESIZE_EXCEEDED) {
    return Status::out_of_range("file larger than " + std::to_string(max_bytes) + " bytes");
  }
  if (rc != CURLE_OK) {
    return Status::unavailable(std::string("file download: ") + curl_easy_strerror(rc));
  }
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) {
    return Status::unavailable("file download: HTTP " + std::to_string(status));
  }
  return std::move(sink.data);
}

Result<std::string> api_result(const ApiReply& reply) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(reply.body).get(root) != simdjson::SUCCESS || !root.is_object()) {
    return Status::unavailable("HTTP " + std::to_string(reply.http_status) +
                               " without a JSON answer");
  }
  bool ok = false;
  if (root["ok"].get(ok) != simdjson::SUCCESS || !ok) {
    std::string_view description;
    if (root["description"].get(description) != simdjson::SUCCESS) description = "no description";
    return Status::unavailable("HTTP " + std::to_string(reply.http_status) + ": " +
                               std::string(description));
  }
  simdjson::dom::element result;
  if (root["result"].get(result) != simdjson::SUCCESS) {
    return Status::unavailable("answer without \"result\"");
  }
  return simdjson::minify(result);
}

}  // namespace scamcheck::telegram_bot
