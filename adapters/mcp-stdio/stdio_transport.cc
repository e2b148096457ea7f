#include "stdio_transport.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/report_json.h"

namespace scamcheck::mcp_stdio {
namespace {

constexpr int kExitIoError = 74;  // EX_IOERR
constexpr std::size_t kReadBytes = std::size_t{1} << 16;

// Splits a file descriptor into lines with read(2), so each message is
// answered as soon as its line is complete.
class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd), buffer_(kReadBytes) {}

  // The next line without its "\n" (and a "\r" before it). *too_long is set
  // for a line over kMaxMessageBytes, whose bytes are dropped. False at the
  // end of input or on a read error (see failed()).
  bool next(std::string* line, bool* too_long) {
    line->clear();
    *too_long = false;
    for (;;) {
      if (const void* nl = std::memchr(buffer_.data() + begin_, '\n', end_ - begin_)) {
        const std::size_t pos = static_cast<const char*>(nl) - buffer_.data();
        take(pos, line, too_long);
        begin_ = pos + 1;
        return true;
      }
      if (eof_) {
        if (begin_ == end_ && !discarding_) return false;
        take(end_, line, too_long);
        begin_ = end_;
        return true;
      }
      if (end_ - begin_ > kMaxMessageBytes) {  // drop the over-long line's bytes as they come
        discarding_ = true;
        begin_ = end_ = 0;
      } else if (begin_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
      }
      fill();
    }
  }

  bool failed() const { return failed_; }

 private:
  void take(std::size_t pos, std::string* line, bool* too_long) {
    if (discarding_ || pos - begin_ > kMaxMessageBytes) {
      *too_long = true;
      discarding_ = false;
      return;
    }
    std::size_t stop = pos;
    if (stop > begin_ && buffer_[stop - 1] == '\r') --stop;
    line->assign(buffer_.data() + begin_, stop - begin_);
  }

  void fill() {
    if (buffer_.size() - end_ < kReadBytes) buffer_.resize(end_ + kReadBytes);
    for (;;) {
      const ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
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

  int fd_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  bool failed_ = false;
  bool discarding_ = false;
};

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The JSON-RPC parse error for a message over kMaxMessageBytes.
std::string too_long_error() {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter w(buffer);
  w.StartObject();
  w.Key("jsonrpc");
  w.String("2.0");
  w.Key("id");
  w.Null();
  w.Key("error");
  w.StartObject();
  w.Key("code");
  w.Int(adapters::kJsonRpcParseError);
  w.Key("message");
  adapters::write_json_string(
      w, "Parse error: message longer than " + std::to_string(kMaxMessageBytes) + " bytes");
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

int serve_stdio(const adapters::McpServer& server, adapters::McpContext& context, int in_fd,
                int out_fd) {
  adapters::McpSession session;  // one stdio process is one session
  LineReader reader(in_fd);
  std::string line;
  bool too_long = false;
  while (reader.next(&line, &too_long)) {
    std::optional<std::string> reply;
    if (too_long) {
      reply = too_long_error();
    } else if (is_blank(line)) {
      continue;
    } else {
      reply = server.handle(line, session, context);
    }
    if (!reply) continue;
    reply->push_back('\n');
    if (!write_all(out_fd, *reply)) {
      std::fprintf(stderr, "scamcheck-mcp: cannot write to standard output: %s\n",
                   std::strerror(errno));
      return kExitIoError;
    }
  }
  if (reader.failed()) {
    std::fprintf(stderr, "scamcheck-mcp: cannot read standard input: %s\n", std::strerror(errno));
    return kExitIoError;
  }
  return 0;
}

}  // namespace scamcheck::mcp_stdio
