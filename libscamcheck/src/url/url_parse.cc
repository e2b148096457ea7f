#include "url/url_parse.h"

#include <curl/curl.h>
#include <idn2.h>

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "util/ascii.h"
#include "util/percent.h"

namespace scamcheck::internal {
namespace {

struct CurlUrlDeleter {
  void operator()(CURLU* h) const { curl_url_cleanup(h); }
};
struct CurlStringDeleter {
  void operator()(char* p) const { curl_free(p); }
};
struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};

// Parses one IPv4 part (decimal, 0x hex, 0 octal) into `value`.
bool parse_ipv4_part(std::string_view part, std::uint64_t& value, bool& canonical) {
  if (part.empty()) return false;
  int base = 10;
  if (part.size() >= 2 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X')) {
    base = 16;
    part.remove_prefix(2);
    canonical = false;
    if (part.empty()) {
      value = 0;
      return true;
    }
  } else if (part.size() >= 2 && part[0] == '0') {
    base = 8;
    part.remove_prefix(1);
    canonical = false;
  }
  if (part.size() > 32) return false;
  std::uint64_t v = 0;
  for (char c : part) {
    int d = base == 16 ? hex_value(c) : (is_digit(c) ? c - '0' : -1);
    if (d < 0 || d >= base) return false;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
    if (v > 0xFFFFFFFFull) return false;
  }
  value = v;
  return true;
}

// Splits the URL into ranges. Follows the WHATWG URL standard where it
// matters for deception: the userinfo ends at the last '@' of the
// authority, and '\' ends the authority like '/'.
bool split(std::string_view url, ParsedUrl& out) {
  std::size_t colon = 0;
  if (url.empty() || !is_alpha(url[0])) return false;
  while (colon < url.size() && (is_alpha(url[colon]) || is_digit(url[colon]) || url[colon] == '+' ||
                                url[colon] == '-' || url[colon] == '.')) {
    ++colon;
  }
  if (colon >= url.size() || url[colon] != ':') return false;
  out.scheme_range = {0, colon};
  out.scheme.resize(colon);
  for (std::size_t i = 0; i < colon; ++i) out.scheme[i] = ascii_lower(url[i]);

  std::size_t pos = colon + 1;
  if (url.substr(pos, 2) == "//") {
    out.has_authority = true;
    std::size_t a = pos + 2;
    std::size_t e = a;
    while (e < url.size() && url[e] != '/' && url[e] != '?' && url[e] != '#' && url[e] != '\\') ++e;
    out.authority = {a, e};
    std::size_t host_start = a;
    for (std::size_t k = a; k < e; ++k) {
      if (url[k] == '@') {
        ++out.at_signs;
        host_start = k + 1;
      }
    }
    if (out.at_signs > 0) out.userinfo = {a, host_start - 1};
    std::size_t host_end = e;
    if (host_start < e && url[host_start] == '[') {
      std::size_t close = url.find(']', host_start);
      host_end = (close == std::string_view::npos || close >= e) ? e : close + 1;
    } else {
      for (std::size_t k = host_start; k < e; ++k) {
        if (url[k] == ':') {
          host_end = k;
          break;
        }
      }
    }
    out.host_range = {host_start, host_end};
    if (host_end < e && url[host_end] == ':') out.port = {host_end + 1, e};
    pos = e;
  }
  std::size_t q = url.find_first_of("?#", pos);
  if (q == std::string_view::npos) {
    out.path = {pos, url.size()};
    return true;
  }
  out.path = {pos, q};
  if (url[q] == '?') {
    std::size_t h = url.find('#', q + 1);
    if (h == std::string_view::npos) {
      out.query = {q + 1, url.size()};
      return true;
    }
    out.query = {q + 1, h};
    q = h;
  }
  out.fragment = {q + 1, url.size()};
  return true;
}

void normalize_host(std::string_view written, const char* curl_host, ParsedUrl& out) {
  if (written.empty()) return;
  if (written.front() == '[') {
    out.host_kind = HostKind::kIpv6;
    out.host.assign(curl_host != nullptr ? curl_host : written);
    for (char& c : out.host) c = ascii_lower(c);
    out.host_unicode = out.host;
    return;
  }
  for (char c : written) {
    if (c == '%') out.host_percent_encoded = true;
    if (static_cast<unsigned char>(c) >= 0x80) out.host_written_unicode = true;
  }
  std::string h;
  if (curl_host != nullptr) {
    h.assign(curl_host);  // curl has percent-decoded it and normalized IPv4
  } else if (out.host_percent_encoded) {
    h = percent_decode(written);
  } else {
    h.assign(written);
  }
  for (char& c : h) c = ascii_lower(c);
  while (!h.empty() && h.back() == '.') h.pop_back();
  for (char c : h) {
    if (static_cast<unsigned char>(c) >= 0x80) out.host_written_unicode = true;
  }

  std::string dotted;
  bool canonical = true;
  if (parse_ipv4(h, dotted, canonical)) {
    out.host_kind = HostKind::kIpv4;
    // Compare with the host as written: curl already normalized it.
    std::string w(written);
    for (char& c : w) c = ascii_lower(c);
    std::string ignored;
    bool written_canonical = true;
    if (parse_ipv4(w, ignored, written_canonical)) {
      out.ipv4_noncanonical = !written_canonical;
    } else {
      out.ipv4_noncanonical = true;  // e.g. percent-encoded digits
    }
    out.host = dotted;
    out.host_unicode = dotted;
    return;
  }
  out.host_kind = HostKind::kName;

  // The raw text decides whether an xn-- label was written.
  for (std::size_t p = 0; p + 4 <= h.size(); ++p) {
    if ((p == 0 || h[p - 1] == '.') && h.compare(p, 4, "xn--") == 0) {
      out.host_has_xn_label = true;
      break;
    }
  }

  if (out.host_written_unicode) {
    char* ascii = nullptr;
    int rc =
        idn2_lookup_u8(reinterpret_cast<const uint8_t*>(h.c_str()),
                       reinterpret_cast<uint8_t**>(&ascii), IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
    if (rc != IDN2_OK) {
      rc = idn2_lookup_u8(reinterpret_cast<const uint8_t*>(h.c_str()),
                          reinterpret_cast<uint8_t**>(&ascii), IDN2_NFC_INPUT | IDN2_TRANSITIONAL);
    }
    std::unique_ptr<char, FreeDeleter> guard(ascii);
    if (rc == IDN2_OK && ascii != nullptr) {
      out.host_unicode = h;
      out.host.assign(ascii);
      for (char& c : out.host) c = ascii_lower(c);
    } else {
      out.idn_failed = true;
      out.host = h;
      out.host_unicode = h;
    }
    // Prefer libidn2's normalized U-labels (NFC, lower case).
  } else {
    out.host = std::move(h);
    out.host_unicode = out.host;
  }
  if (out.host.find("xn--") != std::string::npos) {
    char* uni = nullptr;
    int rc = idn2_to_unicode_8z8z(out.host.c_str(), &uni, 0);
    std::unique_ptr<char, FreeDeleter> guard(uni);
    if (rc == IDN2_OK && uni != nullptr) out.host_unicode.assign(uni);
  }
}

}  // namespace

bool parse_ipv4(std::string_view host, std::string& dotted, bool& canonical) {
  canonical = true;
  if (host.empty()) return false;
  if (host.back() == '.') host.remove_suffix(1);
  std::uint64_t parts[4];
  int count = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = host.find('.', start);
    std::string_view part =
        host.substr(start, dot == std::string_view::npos ? host.npos : dot - start);
    if (count == 4) return false;
    if (!parse_ipv4_part(part, parts[count], canonical)) return false;
    ++count;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  // All but the last part are single bytes; the last fills the rest.
  for (int k = 0; k + 1 < count; ++k) {
    if (parts[k] > 255) return false;
  }
  int rest_bytes = 5 - count;
  std::uint64_t max_last = rest_bytes >= 4 ? 0xFFFFFFFFull : ((1ull << (8 * rest_bytes)) - 1);
  if (parts[count - 1] > max_last) return false;
  if (count != 4) canonical = false;
  std::uint32_t addr = 0;
  for (int k = 0; k + 1 < count; ++k) addr |= static_cast<std::uint32_t>(parts[k]) << (8 * (3 - k));
  addr |= static_cast<std::uint32_t>(parts[count - 1]);
  dotted.clear();
  for (int k = 3; k >= 0; --k) {
    dotted += std::to_string((addr >> (8 * k)) & 0xFF);
    if (k > 0) dotted.push_back('.');
  }
  return true;
}

bool parse_url(std::string_view url, ParsedUrl& out) {
  out = ParsedUrl();
  if (!split(url, out)) return false;
  if (!out.has_authority) return true;

  // libcurl's URL API is the parser of record: it decides whether the URL
  // is well-formed and gives the canonical host (percent-decoded, IPv4
  // normalized). It needs a NUL-terminated copy.
  std::unique_ptr<CURLU, CurlUrlDeleter> handle(curl_url());
  std::unique_ptr<char, CurlStringDeleter> curl_host;
  if (handle) {
    std::string copy(url);
    CURLUcode rc =
        curl_url_set(handle.get(), CURLUPART_URL, copy.c_str(), CURLU_NON_SUPPORT_SCHEME);
    if (rc == CURLUE_OK) {
      out.curl_ok = true;
      char* h = nullptr;
      if (curl_url_get(handle.get(), CURLUPART_HOST, &h, 0) == CURLUE_OK) curl_host.reset(h);
      char* p = nullptr;
      if (curl_url_get(handle.get(), CURLUPART_PORT, &p, 0) == CURLUE_OK && p != nullptr) {
        out.port_number = std::atoi(p);
        curl_free(p);
      }
    }
  }
  if (!out.curl_ok && !out.port.empty()) {
    std::string_view digits = url.substr(out.port.start, out.port.size());
    int v = 0;
    bool ok = !digits.empty() && digits.size() <= 5;
    for (std::size_t i = 0; ok && i < digits.size(); ++i) {
      if (!is_digit(digits[i])) ok = false;
      v = v * 10 + (digits[i] - '0');
    }
    if (ok) out.port_number = v;
  }
  normalize_host(url.substr(out.host_range.start, out.host_range.size()), curl_host.get(), out);
  return true;
}

}  // namespace scamcheck::internal
