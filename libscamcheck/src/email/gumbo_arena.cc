#include "email/gumbo_arena.h"

#include <cstdint>
#include <cstdlib>
#include <new>

namespace scamcheck::internal {
namespace {

// Every block starts kAlign bytes after a header whose last word says how
// it was allocated, so deallocate() can tell without a lookup.
constexpr std::size_t kAlign = 16;                        // what malloc guarantees
constexpr std::size_t kLargeBlock = 1024;                 // and above: malloc
constexpr std::size_t kChunkBytes = 64 * 1024;            // small blocks come from these
constexpr std::uint64_t kSmallTag = 0x5343534d414c4cULL;  // "SCSMALL"
constexpr std::uint64_t kLargeTag = 0x5343424947424cULL;  // "SCBIGBL"

std::size_t round_up(std::size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

void* arena_allocate(void* arena, std::size_t size) {
  return static_cast<GumboArena*>(arena)->allocate(size);
}
void arena_deallocate(void* arena, void* ptr) { static_cast<GumboArena*>(arena)->deallocate(ptr); }

std::uint64_t& tag_of(void* ptr) { return *(static_cast<std::uint64_t*>(ptr) - 1); }

}  // namespace

// A large block's header: its neighbours in the list of live large blocks,
// then the tag (the word right before the block).
struct GumboArena::LargeHeader {
  LargeHeader* prev;
  LargeHeader* next;
  std::uint64_t unused;
  std::uint64_t tag;
};
static_assert(sizeof(void*) <= 8 && 32 % kAlign == 0);

GumboArena::~GumboArena() {
  for (LargeHeader* h = large_; h != nullptr;) {
    LargeHeader* next = h->next;
    std::free(h);
    h = next;
  }
  for (char* c : chunks_) std::free(c);
}

GumboOptions GumboArena::options(GumboOptions base) {
  base.allocator = arena_allocate;
  base.deallocator = arena_deallocate;
  base.userdata = this;
  return base;
}

void* GumboArena::allocate(std::size_t size) {
  if (size >= kLargeBlock) {
    auto* h = static_cast<LargeHeader*>(std::malloc(sizeof(LargeHeader) + size));
    if (h == nullptr) throw std::bad_alloc();
    h->prev = nullptr;
    h->next = large_;
    h->tag = kLargeTag;
    if (large_ != nullptr) large_->prev = h;
    large_ = h;
    return h + 1;
  }
  const std::size_t need = kAlign + round_up(size == 0 ? 1 : size);
  if (next_ == nullptr || static_cast<std::size_t>(end_ - next_) < need) {
    char* chunk = static_cast<char*>(std::malloc(kChunkBytes));
    if (chunk == nullptr) throw std::bad_alloc();
    chunks_.push_back(chunk);
    next_ = chunk;
    end_ = chunk + kChunkBytes;
  }
  void* block = next_ + kAlign;
  next_ += need;
  tag_of(block) = kSmallTag;
  return block;
}

void GumboArena::deallocate(void* ptr) {
  if (ptr == nullptr || tag_of(ptr) != kLargeTag) return;  // small: freed with its chunk
  LargeHeader* h = static_cast<LargeHeader*>(ptr) - 1;
  if (h->prev != nullptr) {
    h->prev->next = h->next;
  } else {
    large_ = h->next;
  }
  if (h->next != nullptr) h->next->prev = h->prev;
  std::free(h);
}

}  // namespace scamcheck::internal
