#include "common/line_reader.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace scamcheck::adapters {

bool LineReader::has_line() {
  if (eof_) return true;
  return std::memchr(buf_.data() + scan_, '\n', end_ - scan_) != nullptr;
}

bool LineReader::next(std::string_view* line, bool* too_long) {
  *too_long = false;
  for (;;) {
    const char* data = buf_.data();
    if (const void* nl = std::memchr(data + scan_, '\n', end_ - scan_)) {
      const std::size_t pos = static_cast<const char*>(nl) - data;
      *line = std::string_view(data + begin_, pos - begin_);
      if (discarding_ || line->size() > max_line_) {
        discarding_ = false;
        *line = {};
        *too_long = true;
      }
      begin_ = scan_ = pos + 1;
      return true;
    }
    scan_ = end_;
    if (eof_) {
      if (discarding_) {
        discarding_ = false;
        *line = {};
        *too_long = true;
        begin_ = scan_ = end_;
        return true;
      }
      if (begin_ < end_) {
        *line = std::string_view(data + begin_, end_ - begin_);
        if (line->size() > max_line_) {
          *line = {};
          *too_long = true;
        }
        begin_ = scan_ = end_;
        return true;
      }
      return false;
    }
    if (discarding_ || end_ - begin_ > max_line_) {
      discarding_ = true;  // drop the over-long line's bytes as they come
      begin_ = scan_ = end_ = 0;
    } else if (begin_ > 0) {
      std::memmove(buf_.data(), data + begin_, end_ - begin_);
      end_ -= begin_;
      scan_ = end_;
      begin_ = 0;
    }
    if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
    fill();
  }
}

void LineReader::fill() {
  for (;;) {
    const ssize_t n = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
    if (n > 0) {
      end_ += static_cast<std::size_t>(n);
      return;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failed_ = true;
    eof_ = true;
    return;
  }
}

}  // namespace scamcheck::adapters
