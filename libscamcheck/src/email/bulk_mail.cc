#include "email/bulk_mail.h"

#include <string>

namespace scamcheck::internal {
namespace {

// Visible text of an advert's HTML: a headline, a few lines and a footer.
// Newsletters of real senders say far more.
constexpr std::size_t kMaxVisibleChars = 1500;
// An advert points to its landing page, a tracker and perhaps an image
// host; a digest links to many sites.
constexpr std::size_t kMaxLinkedSites = 3;

}  // namespace

bool mark_bulk_advert(const ParsedEmail& email, const MailShape& shape, Findings& findings) {
  if (shape.verified_sender || shape.sender_site.empty() || shape.html_parts == 0) return false;
  if (shape.html_visible_chars >= kMaxVisibleChars || shape.plain_text_chars >= kMaxVisibleChars) {
    return false;
  }
  if (shape.linked_sites == 0 || shape.linked_sites > kMaxLinkedSites) return false;
  if (shape.links_sender_site) return false;
  // The strongest marketing wording of the body.
  Finding* wording = nullptr;
  for (Finding& f : findings) {
    if (f.key != "marketing_spam" || f.location.rfind("body", 0) != 0 || f.end <= f.start) {
      continue;
    }
    if (!wording || f.strength > wording->strength) wording = &f;
  }
  if (wording) {
    wording->weight = kBulkAdWeight;
    wording->strength = 1;
    return true;
  }
  // A discussion list carries List-Unsubscribe next to List-Post.
  if (!email.find("List-Post").empty()) return false;
  for (const EmailHeader* h : email.find("List-Unsubscribe")) {
    if (h->value.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    Finding sign = Finding::at("marketing_spam", 0, h->value.size(), h->location());
    sign.weight = kBulkAdWeight;
    findings.push_back(std::move(sign));
    return true;
  }
  return false;
}

}  // namespace scamcheck::internal
