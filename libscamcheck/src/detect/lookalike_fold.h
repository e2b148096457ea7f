// The look-alike fold: one canonical ASCII form for text that imitates a
// name, shared by the brand matcher (url/brands, which also measures edit
// distances on it) and the confusable-word check (detect/confusables, which
// applies it after ICU's skeleton). Two strings look alike when their folds
// are equal.
//
// The fold of a string is, byte by byte:
//   - ASCII letters in lower case;
//   - i and l as one letter, l ("I", "l", "1", "|" and "i" share a glyph in
//     many fonts, and in capitals "lKEA" reads as "IKEA");
//   - digits read as the letters they imitate: 0->o, 1->l, 3->e, 4->a,
//     5->s, 7->t, 8->b, 9->g;
//   - the two-letter imitations contracted: rn->m, vv->w (left to right, so
//     "rnm" -> "mm", "vvv" -> "wv"). ICU's skeleton writes "m" as "rn";
//     contracting gives the same equality and keeps "rnicrosoft" one
//     letter, not two, away from "nicrosoft" for the edit distances;
//   - every other byte (non-ASCII included) kept as it is.
// (cl->d is left out: it turns "cloud" into "doud".)
#ifndef SCAMCHECK_DETECT_LOOKALIKE_FOLD_H_
#define SCAMCHECK_DETECT_LOOKALIKE_FOLD_H_

#include <string>
#include <string_view>

namespace scamcheck::internal {

// The fold of one byte, before the two-letter contractions.
constexpr char lookalike_letter(char c) {
  switch (c) {
    case '0':
      return 'o';
    case '1':
    case 'i':
    case 'I':
    case '|':
      return 'l';
    case '3':
      return 'e';
    case '4':
      return 'a';
    case '5':
      return 's';
    case '7':
      return 't';
    case '8':
      return 'b';
    case '9':
      return 'g';
    default:
      return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
}

// Appends the fold of `c` to `out`, which holds the fold of the bytes before
// it. `Out` is std::string or a fixed buffer with the same empty(), back()
// and push_back().
template <typename Out>
void append_lookalike_fold(Out& out, char c) {
  c = lookalike_letter(c);
  if (!out.empty()) {
    char& last = out.back();
    if (last == 'r' && c == 'n') {
      last = 'm';
      return;
    }
    if (last == 'v' && c == 'v') {
      last = 'w';
      return;
    }
  }
  out.push_back(c);
}

// The fold of `s`, written into `out` (cleared first).
inline void ascii_skeleton(std::string_view s, std::string& out) {
  out.clear();
  for (char c : s) append_lookalike_fold(out, c);
}

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DETECT_LOOKALIKE_FOLD_H_
