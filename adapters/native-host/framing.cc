#include "framing.h"

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstring>

namespace scamcheck::native_host {

long FrameReader::read_full(char* out, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd_, out + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return static_cast<long>(done);
}

FrameReader::Outcome FrameReader::next(std::string* body, Status* problem) {
  char prefix[4];
  const long got = read_full(prefix, sizeof prefix);
  if (got < 0) {
    *problem = Status::internal(std::string("cannot read standard input: ") + std::strerror(errno));
    return Outcome::kBroken;
  }
  if (got == 0) return Outcome::kEnd;
  if (got < 4) {
    *problem = Status::invalid_argument("the input ended inside a frame's 4-byte length prefix (" +
                                        std::to_string(got) + " bytes)");
    return Outcome::kBroken;
  }
  std::uint32_t length = 0;
  std::memcpy(&length, prefix, sizeof length);  // native byte order, as the browsers write it
  if (length > kMaxRequestBytes) {
    *problem = Status::out_of_range("a frame of " + std::to_string(length) +
                                    " bytes is over the limit of " +
                                    std::to_string(kMaxRequestBytes) + " bytes (64 MiB)");
    return Outcome::kBroken;
  }
  body->resize(length);
  const long read = read_full(body->data(), length);
  if (read < 0) {
    *problem = Status::internal(std::string("cannot read standard input: ") + std::strerror(errno));
    return Outcome::kBroken;
  }
  if (static_cast<std::uint32_t>(read) < length) {
    *problem = Status::invalid_argument("the input ended inside a frame: " + std::to_string(read) +
                                        " of " + std::to_string(length) + " bytes");
    return Outcome::kBroken;
  }
  return Outcome::kFrame;
}

bool write_frame(int fd, std::string_view message) {
  const auto length = static_cast<std::uint32_t>(message.size());
  char prefix[4];
  std::memcpy(prefix, &length, sizeof length);
  iovec parts[2] = {{prefix, sizeof prefix}, {const_cast<char*>(message.data()), message.size()}};
  int first = 0;
  while (first < 2) {
    const ssize_t n = ::writev(fd, parts + first, 2 - first);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    auto left = static_cast<std::size_t>(n);
    while (first < 2 && left >= parts[first].iov_len) {
      left -= parts[first].iov_len;
      ++first;
    }
    if (first < 2) {
      parts[first].iov_base = static_cast<char*>(parts[first].iov_base) + left;
      parts[first].iov_len -= left;
    }
  }
  return true;
}

}  // namespace scamcheck::native_host
