// Refanging: turning a link written in "defanged" form (hxxp://, [.], (.),
// (dot), [:]) back into a URL, while remembering where every byte of the
// result came from so that findings can point at the original text.
#ifndef SCAMCHECK_URL_REFANG_H_
#define SCAMCHECK_URL_REFANG_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scamcheck::internal {

struct Refanged {
  std::string url;  // the refanged text (no scheme added)
  bool defanged = false;
  // Byte range of the first defang marker in the written text.
  std::size_t marker_start = 0;
  std::size_t marker_end = 0;
  // Only when `defanged`: for every byte i of `url`, the written bytes
  // [origin_start[i], origin_end[i]) it came from. Otherwise the mapping is
  // the identity.
  std::vector<std::uint32_t> origin_start;
  std::vector<std::uint32_t> origin_end;

  // Written range for url range [start, end). REQUIRES: start < end <= url.size().
  std::pair<std::size_t, std::size_t> to_written(std::size_t start, std::size_t end) const {
    if (!defanged) return {start, end};
    return {origin_start[start], origin_end[end - 1]};
  }
};

// Length of the defang marker that starts at written[pos] and what it stands
// for ("." for "[.]", "(dot)", ...; "://" for "[://]"), or 0 if none.
std::size_t defang_marker_at(std::string_view written, std::size_t pos,
                             std::string_view& replacement);

// Refangs `written`: "hxxp"/"hxxps" at the start become "http"/"https",
// the markers above are replaced. Everything else is copied.
Refanged refang(std::string_view written);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_REFANG_H_
