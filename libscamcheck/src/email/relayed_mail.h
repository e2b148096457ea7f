// Signs in what a mail passes on rather than writes itself.
//
// - A web form's notification ("Name:", "E-mail:", "Message:") whose
//   filled-in text carries a link to a site other than the form owner's:
//   scammers type their lure into strangers' contact forms so that the
//   site's own mail server delivers it (key form_relay_link).
// - A mail that is little more than a link: hardly any words of its own and
//   a link to a site other than its sender's (key link_only_mail). In a
//   forwarded mail ("---------- Forwarded message ---------", "-----Original
//   Message-----", an Outlook "From: / Sent: / To: / Subject:" block) the
//   sender is the forwarded message's own From line and the forward block is
//   not counted as text.
#ifndef SCAMCHECK_EMAIL_RELAYED_MAIL_H_
#define SCAMCHECK_EMAIL_RELAYED_MAIL_H_

#include <string>
#include <string_view>
#include <vector>

#include "decode/mime.h"
#include "detect/finding.h"
#include "scamcheck/report.h"

namespace scamcheck::internal {

// The first message a text forwards: after a forward marker ("----------
// Forwarded message ---------", "-----Original Message-----", a line of
// underscores) or as a header block ("From:" then "Sent:"/"Date:", "To:",
// "Subject:" and their translations).
struct Forwarded {
  bool found = false;
  std::string sender_domain;                 // of its From line's address, lower case; "" if none
  std::size_t from_start = 0, from_end = 0;  // the From line's value in the text
};
Forwarded find_forwarded(std::string_view text);

// Appends form_relay_link, redirect_link and link_only_mail findings for
// `email`, whose HTML parts were already scanned (EmailPart::visible).
// `registrable_sender` is the From address's registrable domain ("" for none,
// a freemail mailbox or a documentation domain: then the address's own
// domain stands in); `urls` the links the mail's checks found.
void check_relayed_mail(const ParsedEmail& email, std::string_view registrable_sender,
                        const std::vector<UrlInfo>& urls, Findings& findings);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_RELAYED_MAIL_H_
