#include "jobs/workflow.h"

#include <curl/curl.h>
#include <sodium.h>

#include <memory>

#include "common/report_json.h"
#include "ids.h"

namespace scamcheck::server {
namespace {

size_t discard(char*, size_t size, size_t count, void*) { return size * count; }

// Aborts the transfer once the server is stopping.
int progress(void* stop, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* flag = static_cast<const std::atomic<bool>*>(stop);
  return flag != nullptr && flag->load() ? 1 : 0;
}

std::string standard_base64(std::string_view bytes) {
  std::string out(sodium_base64_encoded_len(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()),
                    bytes.size(), sodium_base64_VARIANT_ORIGINAL);
  out.resize(out.size() - 1);  // the terminating NUL
  return out;
}

std::string dispatch_body(const CheckRecord& check, const std::string& callback_url) {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter w(buffer);
  w.StartObject();
  adapters::write_json_key(w, "check_uuid");
  adapters::write_json_string(w, check.uuid);
  adapters::write_json_key(w, "type");
  adapters::write_json_string(w, check.type);
  adapters::write_json_key(w, "content");
  const bool utf8 = adapters::is_valid_utf8(check.content);
  adapters::write_json_string(w, utf8 ? check.content : standard_base64(check.content));
  if (!utf8) {
    adapters::write_json_key(w, "content_encoding");
    adapters::write_json_string(w, "base64");
  }
  adapters::write_json_key(w, "url");
  if (check.url) {
    adapters::write_json_string(w, *check.url);
  } else {
    w.Null();
  }
  adapters::write_json_key(w, "locale");
  adapters::write_json_string(w, check.locale);
  adapters::write_json_key(w, "callback_url");
  adapters::write_json_string(w, callback_url);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

WorkflowClient::WorkflowClient(std::string url) : url_(std::move(url)) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
}

Status WorkflowClient::dispatch(const CheckRecord& check, const std::string& callback_url,
                                std::chrono::milliseconds timeout,
                                const std::atomic<bool>* stop) const {
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return Status::internal("workflow: curl_easy_init failed");
  const std::string body = dispatch_body(check, callback_url);
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Accept: application/json");
  std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(headers, &curl_slist_free_all);
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, url_.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &discard);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool>*>(stop));
  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    return Status::unavailable(std::string("workflow: ") + curl_easy_strerror(rc));
  }
  long code = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
  if (code < 200 || code > 299) {
    return Status::unavailable("workflow: answered HTTP " + std::to_string(code));
  }
  return {};
}

std::string new_webhook_secret() {
  std::string bytes(32, '\0');
  randombytes_buf(bytes.data(), bytes.size());
  return base64url_encode(bytes);
}

}  // namespace scamcheck::server
