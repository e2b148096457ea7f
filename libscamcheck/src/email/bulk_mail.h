// Bulk advertising told by a mail's structure. Text rules catch an
// unsubscribe line or an offer, but e-mail weighs such words lightly because
// every newsletter has them. Next to them, the shape of the mail says
// whether it is a sender's own newsletter or a bulk advert: an HTML body with
// little text (an image or two and a button), a few links that all go to
// sites other than the sender's own, and a List-Unsubscribe header without
// the List-Post of a discussion list.
#ifndef SCAMCHECK_EMAIL_BULK_MAIL_H_
#define SCAMCHECK_EMAIL_BULK_MAIL_H_

#include <cstddef>
#include <string_view>

#include "decode/mime.h"
#include "detect/finding.h"

namespace scamcheck::internal {

// What detect_email measured of one mail.
struct MailShape {
  std::size_t html_parts = 0;
  std::size_t html_visible_chars = 0;  // non-space bytes a reader sees in HTML parts
  std::size_t plain_text_chars = 0;    // non-space bytes of the text/plain parts
  std::size_t linked_sites = 0;        // different registrable domains linked
  bool links_sender_site = false;      // a link goes to the From domain
  std::string_view sender_site;        // "" when none or a freemail mailbox
  bool verified_sender = false;        // a brand's verified mail
};

// Weight of the combined sign (key marketing_spam): with one ordinary
// marketing match of a mail it lifts the score over the suspicious line.
inline constexpr double kBulkAdWeight = 18;

// Adds the combined sign (key marketing_spam, weight kBulkAdWeight) and
// returns true when the mail has the shape of a bulk advert: an HTML body
// with little visible text (and a plain-text alternative, if any, no
// longer), one to a few linked sites, none of them the sender's own, and a
// sender domain; and an unsubscribe or advertising wording of its body
// already found (then that finding, the strongest, is lifted to the weight:
// its span is the evidence) or else a List-Unsubscribe header without the
// List-Post of a discussion list (a new finding quoting its value at
// header:List-Unsubscribe). Call after MailContext::apply.
bool mark_bulk_advert(const ParsedEmail& email, const MailShape& shape, Findings& findings);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_BULK_MAIL_H_
