#include "url/public_suffix.h"

#include <libpsl.h>

#include <cstring>
#include <string>

#include "util/recent.h"

namespace scamcheck::internal {
namespace {

struct PslHolder {
  const psl_ctx_t* ctx = nullptr;
  psl_ctx_t* owned = nullptr;
  std::string_view source;

  PslHolder() {
    // psl_latest() loads the distribution's list (e.g. Debian's
    // /usr/share/publicsuffix/public_suffix_list.dafsa) if it is newer than
    // the copy built into libpsl, and falls back to the built-in list.
    owned = psl_latest(nullptr);
    if (owned != nullptr) {
      ctx = owned;
      source = "psl_latest";
    } else {
      ctx = psl_builtin();
      source = "psl_builtin";
    }
  }
  ~PslHolder() {
    if (owned != nullptr) psl_free(owned);
  }
};

const PslHolder& holder() {
  static const PslHolder& h = *new PslHolder();  // thread-safe initialization (C++11)
  return h;
}

}  // namespace

bool is_known_tld(std::string_view label) {
  const psl_ctx_t* ctx = holder().ctx;
  if (ctx == nullptr || label.empty() || label.size() > 63) return false;
  char buf[64];
  std::memcpy(buf, label.data(), label.size());
  buf[label.size()] = '\0';
  // Without PSL_TYPE_NO_STAR_RULE every unknown label would match the
  // implicit "*" rule and count as a suffix.
  return psl_is_public_suffix2(ctx, buf, PSL_TYPE_ICANN | PSL_TYPE_NO_STAR_RULE) != 0;
}

namespace {

// Hosts repeat across the links of one input (one site, many paths): each
// thread remembers its recent answers (the list is fixed for the process).
// One table per question, so that computing one answer may ask the other.
template <char kWhich, typename Compute>
std::string remembered(std::string_view host, Compute compute) {
  thread_local RecentAnswers<std::string, 512> recent;
  return recent.get(host, [&](std::string& answer) { answer = compute(host); });
}

// libpsl's answer, as it is.
std::string registrable_domain_psl(std::string_view host) {
  const psl_ctx_t* ctx = holder().ctx;
  std::string h(host);
  const char* r = psl_registrable_domain(ctx, h.c_str());
  if (r == nullptr) return {};
  return std::string(r);
}

std::string registrable_domain_uncached(std::string_view host) {
  // psl_registrable_domain() tests the host, then the rest after its first
  // label, and so on, until one is a public suffix: none for a host that is
  // a suffix itself, the host when the rest is one, else what the walk
  // gives for the rest alone (its registrable domain, never "" then). The
  // rest is shared by many hosts ("example.top" of every
  // "parcel-<n>.example.top"), so its answer is remembered and a new host
  // costs one test.
  std::size_t dot = host.find('.');
  if (host.front() == '.' || dot == std::string_view::npos || dot + 1 >= host.size() ||
      host[dot + 1] == '.') {
    return registrable_domain_psl(host);
  }
  std::string h(host);
  if (psl_is_public_suffix(holder().ctx, h.c_str()) != 0) return {};
  std::string rest = remembered<'R'>(host.substr(dot + 1), registrable_domain_psl);
  return rest.empty() ? h : rest;
}

std::string registrable_domain_remembered(std::string_view host);

std::string icann_suffix_uncached(std::string_view host) {
  const psl_ctx_t* ctx = holder().ctx;
  // Walk from the longest candidate to the shortest: the first label
  // sequence that is an ICANN suffix (without the star default) wins.
  std::string h(host);
  std::size_t pos = 0;
  // psl_registrable_domain() walks the same candidates from the left and
  // stops at the first public suffix of any section, star rule included;
  // an ICANN suffix without the star rule is such a suffix too, so none of
  // the candidates it passed over can be one: start where it stopped, after
  // the first label of the registrable domain ("top" of
  // "parcel-1.example.top", not the two longer names).
  if (std::string reg = registrable_domain_remembered(host); !reg.empty()) {
    std::size_t dot = h.find('.', h.size() - reg.size());
    if (dot != std::string::npos) pos = dot + 1;
  }
  while (true) {
    const char* cand = h.c_str() + pos;
    // NO_STAR_RULE drops only the implicit "*" default; explicit wildcard
    // rules such as "*.ck" still apply.
    if (psl_is_public_suffix2(ctx, cand, PSL_TYPE_ICANN | PSL_TYPE_NO_STAR_RULE) != 0) {
      return std::string(cand);
    }
    std::size_t dot = h.find('.', pos);
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  // A wildcard rule ("*.ck") or an unknown TLD: use the last label.
  std::size_t last = h.rfind('.');
  return last == std::string::npos ? std::string() : h.substr(last + 1);
}

std::string registrable_domain_remembered(std::string_view host) {
  return remembered<'r'>(host, registrable_domain_uncached);
}

}  // namespace

std::string registrable_domain(std::string_view host) {
  if (holder().ctx == nullptr || host.empty()) return {};
  return registrable_domain_remembered(host);
}

std::string icann_suffix(std::string_view host) {
  if (holder().ctx == nullptr || host.empty()) return {};
  return remembered<'i'>(host, icann_suffix_uncached);
}

std::string_view public_suffix_list_source() { return holder().source; }

}  // namespace scamcheck::internal
