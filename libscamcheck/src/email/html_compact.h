// What Gumbo reads of an HTML part: a copy with its nesting limited, and a
// shorter copy, as Gumbo lexes every byte and passes every character of
// text through its tree builder on its own:
// - the attributes the scan never reads (src, width, cellpadding, alt, ...)
//   are left out of the tags of plain layout elements (img, table cells,
//   div, span, p, ...) and of <a> (a formatting element whose attributes
//   never change how the document is built, html_compact.cc); every tag
//   whose attributes can (other formatting elements such as <font> and
//   <b>, <input>, <body>) is kept as written;
// - so are the declarations of their style values that the scan does not
//   read (font-family, border, ...: email/html_style.h);
// - a run of white space in text keeps its first character (the scan reads
//   any run as one space; newsletters indent their markup deeply).
// - a comment's text is left out ("<!---->" stays);
// - so is the text of <title>, <iframe> and <noframes>, and of <style>
//   in a part without "@media" all but one "background" (html_scan.cc
//   reads no more of it);
// - a run of plain text (printable characters and white space but a form
//   feed, from the start of a word to the end of one, no character
//   reference near it) becomes one placeholder character, kRun: Gumbo
//   lexes and builds one character instead of each of the run's, and the
//   scan reads the run from the source (its characters as written; the
//   scan reads any white space as one space).
// Other raw text (<textarea>, <xmp>, ...) and everything
// after a tag that puts the tokenizer in a state not followed here
// (<script>, <svg>, <select>, ...) stay as written. A map takes each
// position in the copy back to the source, so every range the scan reports
// still slices the source.
#ifndef SCAMCHECK_EMAIL_HTML_COMPACT_H_
#define SCAMCHECK_EMAIL_HTML_COMPACT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace scamcheck::internal {

// Gumbo's tree building is quadratic in the nesting depth (each tag looks
// through the stack of open elements): 64 KB of "<div>" takes 200 ms.
// Legitimate mail nests a few dozen levels. Past kMaxNesting open elements
// (a cheap estimate from the tags alone), further start tags are blanked
// out in `copy`, of the same length, so every offset still points into
// `html`; their text stays visible. Returns `html` or `copy`.
inline constexpr int kMaxNesting = 400;
std::string_view limit_nesting(std::string_view html, std::string& copy);

class CompactHtml {
 public:
  // Fills the copy from `html` (valid UTF-8; anything else is not
  // compacted). False when nothing was left out: parse `html` itself then.
  bool build(std::string_view html);

  const std::string& text() const { return text_; }

  // What stands for a run of text in the copy: U+E000, a private-use
  // character, which Gumbo passes on as it is (it replaces control
  // characters). A source holding it, or a numeric character reference to
  // it, gets no runs.
  static constexpr std::string_view kRun = "\xEE\x80\x80";
  // Whether the copy has runs: each kRun of a text node at copy position
  // `pos` stands for source bytes [to_source(pos), to_source(pos + 3)).
  bool has_runs() const { return runs_; }
  // The HTML the copy was built from (the caller keeps it alive).
  std::string_view source() const { return source_; }

  // The source position of position `pos` of the copy. Exact for every
  // position outside the tags attributes were removed from (text, tag
  // starts and ends, attribute values kept), which is all the scan reports.
  std::size_t to_source(std::size_t pos) const;

  // Bytes left out right after position `pos` - 1 (0 when none).
  std::size_t gap_before(std::size_t pos) const {
    return pos == 0 ? 0 : to_source(pos) - to_source(pos - 1) - 1;
  }

  struct Cut {
    std::size_t at;     // position in the copy where bytes were left out
    std::size_t shift;  // bytes left out before and at `at`, in all
  };

  // to_source() for positions that mostly increase (a text node's
  // characters): a step or two instead of a search.
  class Cursor {
   public:
    explicit Cursor(const CompactHtml& map) : cuts_(map.cuts_) { seek(0); }
    // A character's (or range's) start, and its end (one past its last byte).
    std::size_t start(std::size_t pos) {
      if (pos < low_ || pos >= high_) seek(pos);
      return pos + shift_;
    }
    std::size_t end(std::size_t pos) { return pos == 0 ? 0 : start(pos - 1) + 1; }

   private:
    void seek(std::size_t pos);
    const std::vector<Cut>& cuts_;
    // Positions in [low_, high_) lie between the same two cuts: + shift_.
    std::size_t low_ = 0, high_ = 0, shift_ = 0;
  };

 private:
  std::string text_;
  std::vector<Cut> cuts_;
  bool runs_ = false;
  std::string_view source_;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_HTML_COMPACT_H_
