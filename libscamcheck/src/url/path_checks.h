// Signals from how the path of a URL is built rather than from the words in
// it: phishing pages hidden in the system folders of hacked web sites
// (hijacked_site_path), per-victim folders named by long random hex codes
// (random_code_folder), and another site's host name used as a folder name
// (domain_in_path). Pure functions over the URL string and one list
// (lists/site_asset_folders.txt, passed in).
#ifndef SCAMCHECK_URL_PATH_CHECKS_H_
#define SCAMCHECK_URL_PATH_CHECKS_H_

#include <string>
#include <string_view>
#include <vector>

#include "url/url_checks.h"
#include "url/url_parse.h"

namespace scamcheck::internal {

struct PathShapeInput {
  std::string_view url;          // the analysed URL
  const ParsedUrl* p = nullptr;  // parsed `url`
  std::string_view host;         // normalized host of `url`
  std::string_view registrable;  // its registrable domain ("" for IPs)
  // Brand names and host names in paths are normal on this site (search
  // engines, encyclopedias, code hosting): no domain_in_path.
  bool mention_site = false;
  // The brand_in_path evidence, if any: a host name overlapping it is the
  // same finding (the brand's official domain as a folder) and is not
  // reported twice.
  Range brand_range;
  // UrlLists::asset_folders. REQUIRES: not null.
  const std::vector<std::string>* asset_folders = nullptr;
};

// Appends at most one signal per key to `out`. Links whose last path part
// is an image, style sheet, script, font, document or media file raise
// none: such files sit in system folders on every site.
void check_path_shape(const PathShapeInput& in, std::vector<UrlSignal>& out);

// Helpers, exposed for tests.
// True if `name` (a file name, any case) ends in the extension of a static
// resource or downloadable document ("logo.PNG", "report.pdf").
bool is_static_file(std::string_view name);
// True if `seg` is a random code as phishing kits name their per-victim
// folders: >= 24 hexadecimal characters with at least 4 digits and 4
// letters (md5/sha1/sha256 hex strings).
bool is_hex_code(std::string_view seg);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_PATH_CHECKS_H_
