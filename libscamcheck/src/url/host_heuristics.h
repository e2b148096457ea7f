// Host-name heuristics: what the labels of a host name say on their own,
// before the brand and keyword lists are consulted. Splitting a host into
// labels, how machine-made a label looks (random_domain), whether it is a
// hosting provider's automatic server name (hosting_server_name), and the
// look-alike skeleton and script mix of IDN labels (punycode_domain,
// brand_lookalike). Used by UrlChecker (url_checks.cc).
#ifndef SCAMCHECK_URL_HOST_HEURISTICS_H_
#define SCAMCHECK_URL_HOST_HEURISTICS_H_

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

struct USpoofChecker;

namespace scamcheck::internal {

struct HostLabel {
  std::size_t off;  // in the normalized host
  std::size_t len;
};

// The labels of a host name: up to 32; longer hosts keep the last 32 (the registrable end).
struct HostLabels {
  std::array<HostLabel, 32> items{};
  std::size_t count = 0;
};

// The non-empty dot-separated labels of `host`.
HostLabels split_labels(std::string_view host);

// How random (machine-generated) a host label looks, as the strength of
// random_domain: 0 (a word-like name) up to 2.25 for labels no person
// would choose ("xazjqcjc", hex strings). Uses rare letter pairs
// (`rare_bigrams`, as UrlLists::rare_bigrams), consonant runs, missing
// vowels and digits mixed into letters.
double label_randomness(std::string_view label, const std::vector<bool>& rare_bigrams);

// How much a sub-domain label looks like the automatic name a hosting
// provider gives a rented server or customer account ("u0673711" in
// u0673711.cp.regruhosting.ru, "serwer1989739", "vps61404",
// "ec2-52-91-254-35"): 0 for ordinary names. A real business sends people
// to its own name, not to the machine's.
double server_name_strength(std::string_view label);

// Look-alike skeleton of a host label: ICU's UTS #39 skeleton (from
// `spoof`) for labels with non-ASCII characters, then the look-alike fold
// of ascii_skeleton() (detect/lookalike_fold.h).
void label_skeleton(const USpoofChecker* spoof, std::string_view label, std::string& out);

// Strength of punycode_domain for a Unicode host (mixed scripts and Latin
// look-alikes are strong; plain accented Latin is weak).
double idn_strength(const USpoofChecker* spoof, std::string_view unicode_host, bool written_xn);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_HOST_HEURISTICS_H_
