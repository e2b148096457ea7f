// Memory for one Gumbo parse. Gumbo allocates every token, node, attribute
// and buffer on its own and frees them one by one in gumbo_destroy_output();
// on a newsletter that is tens of thousands of malloc/free pairs, a fifth of
// the parse. The arena hands out small blocks from large chunks (freeing
// one is a no-op) and passes large blocks (the growing buffers and vectors)
// to malloc, freed as soon as Gumbo lets go of them, so memory stays within
// a small multiple of the input. Everything is released when the arena
// ends: the parse output must not be used after that, and
// gumbo_destroy_output() need not (and must not) be called.
#ifndef SCAMCHECK_EMAIL_GUMBO_ARENA_H_
#define SCAMCHECK_EMAIL_GUMBO_ARENA_H_

#include <gumbo.h>

#include <cstddef>
#include <vector>

namespace scamcheck::internal {

class GumboArena {
 public:
  GumboArena() = default;
  ~GumboArena();
  GumboArena(const GumboArena&) = delete;
  GumboArena& operator=(const GumboArena&) = delete;

  // `base` with the arena as Gumbo's allocator.
  GumboOptions options(GumboOptions base);

  void* allocate(std::size_t size);
  void deallocate(void* ptr);

 private:
  struct LargeHeader;

  std::vector<char*> chunks_;
  char* next_ = nullptr;  // free space in the newest chunk
  char* end_ = nullptr;
  LargeHeader* large_ = nullptr;  // live large blocks, a doubly-linked list
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_GUMBO_ARENA_H_
