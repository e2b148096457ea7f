// The LinkMatch for content of kind "url" (CONTRACT §1: one URL, scheme
// optional): the whole content minus surrounding white space, refanged,
// with "http://" added when it has no scheme.
#ifndef SCAMCHECK_URL_URL_INPUT_H_
#define SCAMCHECK_URL_URL_INPUT_H_

#include <optional>
#include <string_view>

#include "extract/links.h"

namespace scamcheck::internal {

// REQUIRES: `content` is valid UTF-8. If it is empty after trimming, the
// result has start == end and must not be analysed.
LinkMatch link_for_url_input(std::string_view content);

// Where a redirect written into `link`'s query leads
// ("https://www.google.com/url?q=https%3A%2F%2Felsewhere.example%2F"): the
// first parameter value that is itself an http(s) URL, as written or
// percent-encoded, as a link over that value (url: decoded). nullopt when
// no parameter holds one.
std::optional<LinkMatch> redirect_target(std::string_view content, const LinkMatch& link);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_URL_INPUT_H_
