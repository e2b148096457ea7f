#include "common/feeds.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/ascii.h"

namespace scamcheck::adapters {
namespace {

namespace fs = std::filesystem;

// Feed lines: blanks and a CR of CRLF line ends.
std::string_view trim_line(std::string_view s) { return trim(s, " \t\r"); }

}  // namespace

std::string FeedSet::normalize_url(std::string_view url) {
  url = trim_line(url);
  if (const std::size_t hash = url.find('#'); hash != std::string_view::npos) {
    url = url.substr(0, hash);
  }
  const std::size_t scheme_end = url.find("://");
  const std::size_t host_begin = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  const std::size_t host_end = std::min(url.find_first_of("/?", host_begin), url.size());
  std::string out = lower_ascii(url.substr(0, host_end));  // scheme and host
  out.append(url.substr(host_end));
  if (out.size() == host_end + 1 && out.back() == '/') out.pop_back();
  return out;
}

void FeedSet::add_text(std::string_view text) {
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    std::string_view line = trim_line(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    if (line.empty() || line.front() == '#') continue;
    if (const std::size_t space = line.find_first_of(" \t"); space != std::string_view::npos) {
      line = line.substr(0, space);
    }
    if (line.find("://") != std::string_view::npos) {
      urls_.insert(normalize_url(line));
    } else if (line.find('/') == std::string_view::npos) {
      std::string domain = lower_ascii(line);
      while (!domain.empty() && domain.back() == '.') domain.pop_back();
      if (!domain.empty()) domains_.insert(std::move(domain));
    } else {
      urls_.insert(normalize_url("http://" + std::string(line)));
    }
  }
}

std::string_view FeedSet::host_of(std::string_view url) {
  const std::size_t scheme_end = url.find("://");
  if (scheme_end != std::string_view::npos) url.remove_prefix(scheme_end + 3);
  url = url.substr(0, url.find_first_of("/?#"));
  if (const std::size_t at = url.rfind('@'); at != std::string_view::npos) {
    url.remove_prefix(at + 1);
  }
  if (!url.empty() && url.front() == '[') return url;  // an IPv6 literal, port and all
  url = url.substr(0, url.find(':'));
  while (!url.empty() && url.back() == '.') url.remove_suffix(1);
  return url;
}

bool FeedSet::malicious(std::string_view url) const {
  if (!urls_.empty() && urls_.count(normalize_url(url))) return true;
  if (domains_.empty()) return false;
  // The host and each parent domain down to two labels: "bad.example"
  // covers "www.bad.example".
  const std::string host = lower_ascii(host_of(url));
  std::string_view candidate = host;
  while (!candidate.empty()) {
    if (domains_.count(std::string(candidate))) return true;
    const std::size_t dot = candidate.find('.');
    if (dot == std::string_view::npos) return false;
    candidate.remove_prefix(dot + 1);
    if (candidate.find('.') == std::string_view::npos) return false;
  }
  return false;
}

Feeds::Feeds(std::string dir, std::function<void(const FeedsLoad&)> on_load,
             std::chrono::milliseconds poll_interval)
    : dir_(std::move(dir)),
      on_load_(std::move(on_load)),
      poll_interval_(poll_interval),
      current_(std::make_shared<FeedSet>()) {}

Feeds::~Feeds() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

void Feeds::start() {
  if (dir_.empty()) return;
  fingerprint_ = fingerprint();
  reload();
  watcher_ = std::thread([this] { watch(); });
}

std::shared_ptr<const FeedSet> Feeds::current() const {
  std::lock_guard lock(mutex_);
  return current_;
}

Result<std::vector<Reputation>> Feeds::lookup(const std::vector<std::string>& urls) const {
  const std::shared_ptr<const FeedSet> feeds = current();
  std::vector<Reputation> answers;
  answers.reserve(urls.size());
  for (const std::string& url : urls) {
    answers.push_back(feeds->malicious(url) ? Reputation::kMalicious : Reputation::kUnknown);
  }
  return answers;
}

std::uint64_t Feeds::fingerprint() const {
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    for (char c : entry.path().filename().string()) mix(static_cast<unsigned char>(c));
    mix(entry.file_size(ec));
    mix(static_cast<std::uint64_t>(entry.last_write_time(ec).time_since_epoch().count()));
  }
  return h;
}

void Feeds::reload() {
  auto set = std::make_shared<FeedSet>();
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    if (entry.is_regular_file(ec)) files.push_back(entry.path());
  }
  for (const fs::path& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    set->add_text(text.str());
  }
  if (on_load_) {
    on_load_(FeedsLoad{.dir = dir_,
                       .error = ec ? ec.message() : std::string(),
                       .files = files.size(),
                       .urls = set->url_count(),
                       .domains = set->domain_count()});
  }
  std::lock_guard lock(mutex_);
  current_ = std::move(set);
}

void Feeds::watch() {
  std::unique_lock lock(mutex_);
  while (!stop_cv_.wait_for(lock, poll_interval_, [this] { return stopping_; })) {
    lock.unlock();
    const std::uint64_t now = fingerprint();
    if (now != fingerprint_) {
      fingerprint_ = now;
      reload();
    }
    lock.lock();
  }
}

}  // namespace scamcheck::adapters
