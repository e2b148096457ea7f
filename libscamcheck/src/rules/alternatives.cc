#include "rules/alternatives.h"

#include <algorithm>

namespace scamcheck::internal {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// Just past the escape at p[i] == '\\' ("\Q...\E" whole: all literal).
std::size_t escape_end(std::string_view p, std::size_t i) {
  if (p.compare(i, 2, "\\Q") == 0) {
    const std::size_t e = p.find("\\E", i + 2);
    return e == npos ? p.size() : e + 2;
  }
  return std::min(p.size(), i + 2);
}

// Just past the class opened at p[i] == '[' (']' first, after '^', is a
// member; "[:alpha:]" inside); npos if it does not close.
std::size_t class_end(std::string_view p, std::size_t i) {
  std::size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  if (j < p.size() && p[j] == ']') ++j;
  for (; j < p.size() && p[j] != ']'; ++j) {
    if (p[j] == '\\') {
      ++j;
    } else if (p.compare(j, 2, "[:") == 0) {
      const std::size_t e = p.find(":]", j + 2);
      if (e != npos) j = e + 1;
    }
  }
  return j < p.size() ? j + 1 : npos;
}

// How many bytes open the group at p[i] == '(' ("(", "(?:", "(?i:",
// "(?P<name>"); 0 for a bare flag group ("(?i)"), or one that does not
// close.
std::size_t group_opening(std::string_view p, std::size_t i) {
  if (p.compare(i, 2, "(?") != 0) return 1;
  if (p.compare(i, 4, "(?P<") == 0 || p.compare(i, 3, "(?<") == 0) {
    const std::size_t e = p.find('>', i);
    return e == npos ? 0 : e + 1 - i;
  }
  const std::size_t e = p.find_first_of(":)", i + 2);
  return e == npos || p[e] == ')' ? 0 : e + 1 - i;
}

bool is_name_start(char c) { return c >= 'a' && c <= 'z'; }
bool is_name_byte(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '_'; }

}  // namespace

std::string expand_fragments(std::string_view pattern,
                             const std::function<const std::string*(std::string_view)>& fragment,
                             std::string& unknown) {
  std::string out;
  out.reserve(pattern.size());
  for (std::size_t i = 0; i < pattern.size();) {
    std::size_t next = i + 1;
    if (pattern[i] == '\\') {
      next = escape_end(pattern, i);
    } else if (pattern[i] == '[') {
      next = class_end(pattern, i);
      if (next == npos) next = pattern.size();
    } else if (pattern[i] == '{' && i + 1 < pattern.size() && is_name_start(pattern[i + 1])) {
      std::size_t end = i + 1;
      while (end < pattern.size() && is_name_byte(pattern[end])) ++end;
      if (end < pattern.size() && pattern[end] == '}') {
        const std::string_view name = pattern.substr(i + 1, end - i - 1);
        const std::string* text = fragment(name);
        if (text == nullptr) {
          unknown = std::string(name);
          return {};
        }
        out.append("(?:").append(*text).push_back(')');
        i = end + 1;
        continue;
      }
    }
    out.append(pattern.substr(i, next - i));
    i = next;
  }
  return out;
}

std::vector<std::string_view> top_alternatives(std::string_view pattern) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    std::size_t next = i + 1;
    if (c == '\\') {
      next = escape_end(pattern, i);
    } else if (c == '[') {
      next = class_end(pattern, i);
      if (next == npos) return {pattern};
    } else if (c == '(') {
      if (depth == 0 && group_opening(pattern, i) == 0) return {pattern};
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == '|' && depth == 0) {
      out.push_back(pattern.substr(from, i - from));
      from = i + 1;
    }
    i = next;
  }
  out.push_back(pattern.substr(from));
  return out;
}

std::string unfactored(std::string_view pattern) {
  std::string out = "(";
  out.reserve(2 * pattern.size());
  int depth = 0;
  bool opened = true;  // an alternative's group just opened: nothing in it
  for (std::size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    std::size_t next = i + 1;
    if (c == '\\') {
      // "\Q..." to the end: a ')' after it would be literal too.
      if (pattern.compare(i, 2, "\\Q") == 0 && pattern.find("\\E", i + 2) == npos) {
        return std::string(pattern);
      }
      next = escape_end(pattern, i);
    } else if (c == '[') {
      next = class_end(pattern, i);
      if (next == npos) return std::string(pattern);
    } else if (c == '?' || c == '*' || c == '+') {
      // A repeat of nothing: after the '(' written, "(?" would read as a
      // group's flags.
      if (opened) return std::string(pattern);
    } else if (c == '(') {
      const std::size_t opening = group_opening(pattern, i);
      if (opening == 0) return std::string(pattern);
      out.append(pattern.substr(i, opening)).push_back('(');
      ++depth;
      i += opening;
      opened = true;
      continue;
    } else if (c == ')') {
      if (--depth < 0) return std::string(pattern);
      next = i + 1;
      out += ')';  // the last alternative's; the group's below
    } else if (c == '|') {
      out += ")|(";
      i = next;
      opened = true;
      continue;
    }
    out.append(pattern.substr(i, next - i));
    i = next;
    opened = false;
  }
  if (depth != 0) return std::string(pattern);
  out.push_back(')');
  return out;
}

}  // namespace scamcheck::internal
