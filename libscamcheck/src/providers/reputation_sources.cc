// The libcurl URL reputation sources (Google Safe Browsing v4 Lookup API,
// URLhaus) and the aggregate of several sources.
#include <simdjson.h>

#include <algorithm>
#include <unordered_set>

#include "providers/http_client.h"
#include "providers/request_json.h"
#include "scamcheck/providers.h"
#include "scamcheck/version.h"

namespace scamcheck {

UrlReputation::~UrlReputation() = default;
ReputationStore::~ReputationStore() = default;

namespace internal {
namespace {

// Threat entries per threatMatches:find request (the API's limit is 500).
constexpr std::size_t kSafeBrowsingBatch = 500;

bool is_http_url(std::string_view url) {
  return url.substr(0, 7) == "http://" || url.substr(0, 8) == "https://";
}

std::string without_trailing_slash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

Status http_error(std::string_view who, long code) {
  const std::string message = std::string(who) + " answered HTTP " + std::to_string(code);
  return code == 429 || code >= 500 ? Status::unavailable(message) : Status::internal(message);
}

class SafeBrowsing final : public UrlReputation {
 public:
  explicit SafeBrowsing(SafeBrowsingOptions options)
      : options_(std::move(options)),
        url_(without_trailing_slash(options_.url) +
             "/v4/threatMatches:find?key=" + form_escape(options_.api_key)) {}

  Result<std::vector<Reputation>> lookup(const std::vector<std::string>& urls) const override {
    std::vector<Reputation> out(urls.size(), Reputation::kClean);
    for (std::size_t first = 0; first < urls.size(); first += kSafeBrowsingBatch) {
      const std::size_t last = std::min(urls.size(), first + kSafeBrowsingBatch);
      std::unordered_set<std::string> listed;
      if (Status s = find(urls, first, last, listed); !s.ok()) return s;
      for (std::size_t i = first; i < last; ++i) {
        if (listed.count(urls[i]) > 0) out[i] = Reputation::kMalicious;
      }
    }
    return out;
  }

 private:
  Status find(const std::vector<std::string>& urls, std::size_t first, std::size_t last,
              std::unordered_set<std::string>& listed) const {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    auto strings = [&](std::initializer_list<const char*> values) {
      w.StartArray();
      for (const char* v : values) w.String(v);
      w.EndArray();
    };
    w.StartObject();
    w.Key("client");
    w.StartObject();
    w.Key("clientId");
    write_string(w, options_.client_id);
    w.Key("clientVersion");
    w.String(SCAMCHECK_VERSION_STRING);
    w.EndObject();
    w.Key("threatInfo");
    w.StartObject();
    w.Key("threatTypes");
    strings(
        {"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"});
    w.Key("platformTypes");
    strings({"ANY_PLATFORM"});
    w.Key("threatEntryTypes");
    strings({"URL"});
    w.Key("threatEntries");
    w.StartArray();
    for (std::size_t i = first; i < last; ++i) {
      w.StartObject();
      w.Key("url");
      write_string(w, urls[i]);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    w.EndObject();

    HttpRequest http;
    http.url = url_;
    http.body = json_text(buffer);
    http.headers = {"Content-Type: application/json", "Accept: application/json"};
    http.timeout_ms = options_.timeout_ms;
    http.connect_timeout_ms = std::min(options_.timeout_ms, 3'000);
    Result<HttpResponse> response = client_.post(http);
    if (!response.ok()) return response.status();
    if (response->status != 200) return http_error("Safe Browsing", response->status);

    simdjson::dom::parser parser;
    simdjson::dom::object top;
    if (parser.parse(simdjson::padded_string(response->body)).get(top)) {
      return Status::internal("Safe Browsing reply is not a JSON object");
    }
    simdjson::dom::array matches;
    const auto error = top["matches"].get(matches);
    if (error == simdjson::NO_SUCH_FIELD) return {};  // "{}": nothing listed
    if (error) return Status::internal("Safe Browsing reply: matches is not an array");
    for (simdjson::dom::element m : matches) {
      std::string_view url;
      if (m["threat"]["url"].get(url)) {
        return Status::internal("Safe Browsing reply: a match without threat.url");
      }
      listed.emplace(url);
    }
    return {};
  }

  const SafeBrowsingOptions options_;
  const std::string url_;
  HttpClient client_;
};

class Urlhaus final : public UrlReputation {
 public:
  explicit Urlhaus(UrlhausOptions options)
      : options_(std::move(options)), url_(without_trailing_slash(options_.url) + "/v1/url/") {}

  Result<std::vector<Reputation>> lookup(const std::vector<std::string>& urls) const override {
    std::vector<Reputation> out;
    out.reserve(urls.size());
    for (const std::string& url : urls) {
      Result<Reputation> r = lookup_one(url);
      // A source that fails once is not asked about the rest of the batch:
      // a dead service should cost one timeout, not one per URL.
      if (!r.ok()) return r.status();
      out.push_back(*r);
    }
    return out;
  }

 private:
  Result<Reputation> lookup_one(const std::string& url) const {
    HttpRequest http;
    http.url = url_;
    http.body = "url=" + form_escape(url);
    http.headers = {"Content-Type: application/x-www-form-urlencoded", "Accept: application/json"};
    if (!options_.auth_key.empty()) http.headers.push_back("Auth-Key: " + options_.auth_key);
    http.timeout_ms = options_.timeout_ms;
    http.connect_timeout_ms = std::min(options_.timeout_ms, 3'000);
    Result<HttpResponse> response = client_.post(http);
    if (!response.ok()) return response.status();
    if (response->status != 200) return http_error("URLhaus", response->status);
    simdjson::dom::parser parser;
    simdjson::dom::object top;
    std::string_view query_status;
    if (parser.parse(simdjson::padded_string(response->body)).get(top) ||
        top["query_status"].get(query_status)) {
      return Status::internal("URLhaus reply has no query_status");
    }
    if (query_status == "ok") return Reputation::kMalicious;
    if (query_status == "no_results") return Reputation::kClean;
    if (query_status == "invalid_url") return Reputation::kUnknown;
    return Status::internal("URLhaus reply: query_status '" + std::string(query_status) + "'");
  }

  const UrlhausOptions options_;
  const std::string url_;
  HttpClient client_;
};

class Aggregate final : public UrlReputation {
 public:
  explicit Aggregate(std::vector<std::shared_ptr<UrlReputation>> sources)
      : sources_(std::move(sources)) {
    std::erase(sources_, nullptr);
  }

  Result<std::vector<Reputation>> lookup(const std::vector<std::string>& urls) const override {
    std::vector<Reputation> out(urls.size(), Reputation::kUnknown);
    Status last_error;
    std::size_t answered = 0;
    for (const auto& source : sources_) {
      Result<std::vector<Reputation>> r = source->lookup(urls);
      if (!r.ok() || r->size() != urls.size()) {
        last_error =
            r.ok() ? Status::internal("a reputation source answered the wrong count") : r.status();
        continue;
      }
      ++answered;
      for (std::size_t i = 0; i < urls.size(); ++i) {
        const Reputation v = (*r)[i];
        if (v == Reputation::kMalicious ||
            (v == Reputation::kClean && out[i] == Reputation::kUnknown)) {
          out[i] = v;
        }
      }
    }
    if (answered == 0 && !sources_.empty()) return last_error;
    return out;
  }

 private:
  std::vector<std::shared_ptr<UrlReputation>> sources_;
};

}  // namespace
}  // namespace internal

Result<std::shared_ptr<UrlReputation>> make_safe_browsing(SafeBrowsingOptions options) {
  if (options.api_key.empty()) return Status::invalid_argument("Safe Browsing API key is empty");
  if (!internal::is_http_url(options.url)) {
    return Status::invalid_argument("Safe Browsing URL must start with http:// or https://");
  }
  if (options.timeout_ms <= 0) return Status::invalid_argument("Safe Browsing timeout must be > 0");
  return std::shared_ptr<UrlReputation>(
      std::make_shared<internal::SafeBrowsing>(std::move(options)));
}

Result<std::shared_ptr<UrlReputation>> make_urlhaus(UrlhausOptions options) {
  if (!internal::is_http_url(options.url)) {
    return Status::invalid_argument("URLhaus URL must start with http:// or https://");
  }
  if (options.timeout_ms <= 0) return Status::invalid_argument("URLhaus timeout must be > 0");
  return std::shared_ptr<UrlReputation>(std::make_shared<internal::Urlhaus>(std::move(options)));
}

std::shared_ptr<UrlReputation> make_reputation_aggregate(
    std::vector<std::shared_ptr<UrlReputation>> sources) {
  return std::make_shared<internal::Aggregate>(std::move(sources));
}

}  // namespace scamcheck
