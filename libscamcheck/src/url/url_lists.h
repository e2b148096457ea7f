// The plain-text lists of the URL stage (data/lists/*.txt), parsed once.
// Each line is "<entry> [<strength>] [<tag>...]"; '#' starts a comment.
#ifndef SCAMCHECK_URL_URL_LISTS_H_
#define SCAMCHECK_URL_URL_LISTS_H_

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "data/data_source.h"
#include "scamcheck/status.h"
#include "url/brands.h"

namespace scamcheck::internal {

struct UrlKeyword {
  std::string word;
  bool login = false;      // tagged "login": marks a log-in page (insecure_login_page)
  bool host_only = false;  // tagged "host": only counts in host names
  double strength = 1.0;   // how much one occurrence counts
};

struct UrlLists {
  // lists/risky_tlds.txt: TLD -> strength (1.0 = the key's full weight).
  std::unordered_map<std::string, double, StringHash, std::equal_to<>> risky_tlds;
  // lists/shorteners.txt: host names / registrable domains of URL shorteners.
  std::unordered_map<std::string, double, StringHash, std::equal_to<>> shorteners;
  // lists/free_hosting.txt: parent domains whose sub-domains anyone can
  // create (free hosting, site builders, dynamic DNS, tunnels) -> strength.
  std::unordered_map<std::string, double, StringHash, std::equal_to<>> free_hosting;
  // lists/brand_mention_sites.txt: registrable domains (or "label.*") where
  // brand names in the path are normal (search engines, social networks,
  // shops, app stores, encyclopedias).
  std::unordered_map<std::string, double, StringHash, std::equal_to<>> mention_sites;
  // lists/url_keywords.txt
  std::vector<UrlKeyword> keywords;
  // lists/rare_bigrams.txt: rare_bigrams[(a - 'a') * 26 + (b - 'a')].
  std::vector<bool> rare_bigrams = std::vector<bool>(26 * 26, false);
  // lists/site_asset_folders.txt: folder names for a site's own files
  // (hijacked_site_path, weak), lower case.
  std::vector<std::string> asset_folders;

  static Result<UrlLists> load(const DataSource& data);
};

// Parses "<entry> [<strength>] [tags]" lines. Entries are lower-cased.
// Problems (bad numbers, strengths outside (0, 3]) are appended to `problems`.
struct ListEntry {
  std::string entry;
  double strength = 1.0;
  std::vector<std::string> tags;
};
std::vector<ListEntry> parse_weighted_list(std::string_view text, std::string_view name,
                                           std::string& problems);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_URL_LISTS_H_
