// A short mail that asks the reader to write to a free-mail address other
// than its sender's: "Email: someone@outlook.com" under a stranger's
// "promising opportunity", "write to me at ...@gmail.com" from a hacked
// company mailbox. Whoever answers ends up with the scammer, not with the
// sender the mail shows (key reply_to_mismatch, as for a Reply-To header
// that sends replies elsewhere; evidence: the address in the body).
//
// Only a mail of its own words counts: not a reply (In-Reply-To,
// References, a "Re:" subject: it quotes others' addresses), not a forward
// (its header block names another sender), not list or bulk mail
// (List-Id, List-Post, List-Unsubscribe, Mailing-List: it names its
// members), not a form or account notification (three or more "Label:
// value" lines: a visitor's or the reader's own address), and at most
// kReplyElsewhereMaxWords words. The address must be asked for: on its line
// and shortly before it a word such as "write", "reply", "contact", "email
// me" or a "mail:" label, and not "your" (the reader's own address).
#ifndef SCAMCHECK_EMAIL_REPLY_ELSEWHERE_H_
#define SCAMCHECK_EMAIL_REPLY_ELSEWHERE_H_

#include <cstddef>

#include "decode/mime.h"
#include "detect/finding.h"
#include "email/email_checks.h"

namespace scamcheck::internal {

inline constexpr std::size_t kReplyElsewhereMaxWords = 150;

// Appends at most one reply_to_mismatch finding for the first such address
// of `email`'s top-level text or HTML parts (HTML parts already scanned:
// EmailPart::visible). `answers`: the mail says it answers another.
void check_reply_elsewhere(const ParsedEmail& email, bool answers, const HeaderChecker& headers,
                           Findings& findings);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_REPLY_ELSEWHERE_H_
