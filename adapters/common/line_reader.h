// Splits a file descriptor into lines with read(2), not fread, so that a
// slow producer's lines are answered as they arrive rather than when a
// buffer fills. Used by `scamcheck --jsonl` and `scamcheck-mcp`.
#ifndef SCAMCHECK_ADAPTERS_COMMON_LINE_READER_H_
#define SCAMCHECK_ADAPTERS_COMMON_LINE_READER_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace scamcheck::adapters {

// A line that JSON Lines readers skip: nothing but spaces, tabs and CRs.
inline bool is_blank_line(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

class LineReader {
 public:
  // Lines of at most `max_line` bytes from `fd` (not owned); read(2) asks
  // for `read_bytes` at a time.
  LineReader(int fd, std::size_t max_line, std::size_t read_bytes = std::size_t{1} << 16)
      : fd_(fd), max_line_(max_line), buf_(read_bytes) {}

  // True when next() can return without reading: a complete line is
  // buffered, or the input ended.
  bool has_line();

  // The next line, without its '\n'; valid until the next call. A line
  // longer than max_line comes back empty with *too_long set; its bytes are
  // dropped as they arrive, never held. False at the end of input (or on a
  // read error; see failed()).
  bool next(std::string_view* line, bool* too_long);

  bool failed() const { return failed_; }

 private:
  void fill();

  int fd_;
  std::size_t max_line_;
  std::vector<char> buf_;
  std::size_t begin_ = 0;  // start of the current line
  std::size_t scan_ = 0;   // no '\n' in [begin_, scan_)
  std::size_t end_ = 0;    // end of buffered data
  bool eof_ = false;
  bool failed_ = false;
  bool discarding_ = false;
};

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_LINE_READER_H_
