#include "auth/token_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace scamcheck::server {

std::unique_ptr<AuthEpoch> AuthEpoch::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return nullptr;
  struct stat st {};
  void* map = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && (st.st_size >= static_cast<off_t>(sizeof(std::uint64_t)) ||
                                ::ftruncate(fd, sizeof(std::uint64_t)) == 0)) {
    map = ::mmap(nullptr, sizeof(std::uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  ::close(fd);  // the mapping stays
  if (map == MAP_FAILED) return nullptr;
  return std::unique_ptr<AuthEpoch>(new AuthEpoch(static_cast<std::uint64_t*>(map), true));
}

std::unique_ptr<AuthEpoch> AuthEpoch::in_process() {
  return std::unique_ptr<AuthEpoch>(new AuthEpoch(new std::uint64_t(0), false));
}

AuthEpoch::~AuthEpoch() {
  if (mapped_) {
    ::munmap(counter_, sizeof(std::uint64_t));
  } else {
    delete counter_;
  }
}

std::uint64_t AuthEpoch::load() const {
  return std::atomic_ref<std::uint64_t>(*counter_).load(std::memory_order_acquire);
}

void AuthEpoch::bump() {
  std::atomic_ref<std::uint64_t>(*counter_).fetch_add(1, std::memory_order_acq_rel);
}

std::size_t TokenCache::HashOfDigest::operator()(const Sha256& h) const noexcept {
  std::size_t v;
  std::memcpy(&v, h.data(), sizeof v);  // a SHA-256 is evenly spread already
  return v;
}

std::uint64_t TokenCache::stamp() const {
  // Both counters only grow, so their sum moves whenever either does.
  return local_changes_.load(std::memory_order_acquire) + (epoch_ ? epoch_->load() : 0);
}

void TokenCache::sync(std::uint64_t current) {
  if (current == synced_) return;
  entries_.clear();
  synced_ = current;
}

std::optional<TokenRecord> TokenCache::get(const Sha256& hash) {
  if (!epoch_) return std::nullopt;
  std::lock_guard lock(mutex_);
  sync(stamp());
  auto it = entries_.find(hash);
  if (it == entries_.end()) return std::nullopt;
  if (std::chrono::steady_clock::now() - it->second.read_at > kMaxAge) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.token;
}

void TokenCache::put(const TokenRecord& token, std::uint64_t stamp_before) {
  if (!epoch_) return;
  std::lock_guard lock(mutex_);
  const std::uint64_t current = stamp();
  sync(current);
  if (stamp_before != current) return;  // something changed while it was read
  if (entries_.size() >= kMaxEntries) entries_.clear();
  entries_.insert_or_assign(token.token_hash, Entry{token, std::chrono::steady_clock::now()});
}

void TokenCache::changed() {
  local_changes_.fetch_add(1, std::memory_order_acq_rel);
  if (epoch_) epoch_->bump();
}

void TokenCache::touched(std::int64_t token_id, std::int64_t now) {
  if (!epoch_) return;
  std::lock_guard lock(mutex_);
  for (auto& [hash, entry] : entries_) {
    if (entry.token.id == token_id) entry.token.last_used_at = now;
  }
}

}  // namespace scamcheck::server
