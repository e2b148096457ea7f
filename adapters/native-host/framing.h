// Native messaging framing (Chrome, Chromium, Firefox): every message is a
// 32-bit length in native byte order followed by that many bytes of UTF-8
// JSON, in both directions. The browser starts the host, writes requests to
// its standard input and reads replies from its standard output.
#ifndef SCAMCHECK_ADAPTERS_NATIVE_HOST_FRAMING_H_
#define SCAMCHECK_ADAPTERS_NATIVE_HOST_FRAMING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "scamcheck/status.h"

namespace scamcheck::native_host {

// Largest request frame read, in bytes (64 MiB): a 10 MiB image in base64
// plus the JSON around it fits many times over. A longer length prefix is
// a broken stream (its body is never read, so nothing can be resynchronised).
inline constexpr std::uint32_t kMaxRequestBytes = std::uint32_t{64} << 20;

// Largest reply written, in bytes (1,000,000): Chromium and Firefox refuse
// a message from the host over 1 MB and drop the connection.
inline constexpr std::size_t kMaxReplyBytes = 1'000'000;

class FrameReader {
 public:
  enum class Outcome {
    kFrame,   // *body holds one message (possibly empty: length 0)
    kEnd,     // the input ended cleanly, between two frames
    kBroken,  // the stream cannot be read on; *problem says why
  };

  // Reads frames from `fd` (not owned) with read(2).
  explicit FrameReader(int fd) : fd_(fd) {}

  // Reads the next frame into *body (replacing its contents). On kBroken,
  // *problem is set to a non-OK Status: out_of_range for a length over
  // kMaxRequestBytes, invalid_argument for input that ends inside a frame,
  // internal for a read error.
  Outcome next(std::string* body, Status* problem);

 private:
  // Reads exactly `size` bytes unless the input ends or fails first;
  // returns how many were read (-1 on a read error).
  long read_full(char* out, std::size_t size);

  int fd_;
};

// Writes one frame (length prefix, then `message`) to `fd` with write(2).
// False when the write fails (the browser went away).
// REQUIRES: message.size() <= UINT32_MAX.
bool write_frame(int fd, std::string_view message);

}  // namespace scamcheck::native_host

#endif  // SCAMCHECK_ADAPTERS_NATIVE_HOST_FRAMING_H_
