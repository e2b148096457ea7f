// Normalization for matching: NFKC, case folding, default-ignorable code
// points (zero-width characters, soft hyphens) removed and typographic
// variants lumped (dashes, quotes). Keeps a map from every normalized byte
// back to the original bytes, so matches become spans into the input.
#ifndef SCAMCHECK_NORMALIZE_NORMALIZE_H_
#define SCAMCHECK_NORMALIZE_NORMALIZE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scamcheck::internal {

class NormalizedText {
 public:
  // REQUIRES: `original` is valid UTF-8 and outlives this object.
  // `underscores_as_spaces`: '_' reads as a space ("You_have_won", a way to
  // slip words past filters), except in tokens that are addresses or file
  // names (with '/', '.', '@' or ':'); for the text rules, the model keeps
  // them.
  explicit NormalizedText(std::string_view original, bool underscores_as_spaces = false);

  std::string_view original() const { return original_; }
  const std::string& text() const { return text_; }

  // Maps normalized byte range [start, end) to the smallest original byte
  // range that produced it. Expanding at both ends keeps the result on
  // character boundaries of the original, so it is always a verbatim quote.
  // REQUIRES: start < end <= text().size().
  std::pair<std::size_t, std::size_t> to_original(std::size_t start, std::size_t end) const {
    return {origin_start_[start], origin_end_[end - 1]};
  }

  // Whether some '_' was read as a space (only with `underscores_as_spaces`).
  // When none was, the text equals that of NormalizedText(original), so the
  // rules' normalization can serve the model's features too.
  bool spaced_underscores() const { return spaced_underscores_; }

 private:
  std::string_view original_;
  std::string text_;
  std::vector<std::uint32_t> origin_start_;  // per normalized byte
  std::vector<std::uint32_t> origin_end_;    // per normalized byte
  bool spaced_underscores_ = false;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_NORMALIZE_NORMALIZE_H_
