// How the signs of the text pipeline read inside an email
// (data/email.json). A newsletter legitimately carries dozens of tracking
// links and an unsubscribe line; a brand's verified mail legitimately names
// the brand and asks to pay. The same words in a short message mean more.
#ifndef SCAMCHECK_EMAIL_MAIL_CONTEXT_H_
#define SCAMCHECK_EMAIL_MAIL_CONTEXT_H_

#include <re2/re2.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "data/data_source.h"
#include "detect/finding.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

class MailContext {
 public:
  // `known_key` says whether a signal key exists (the glossary); unknown
  // keys and factors outside [0, 4] are errors naming the file.
  static Result<std::unique_ptr<MailContext>> load(
      const DataSource& data, const std::function<bool(std::string_view)>& known_key);

  // Scales every finding's strength by its key's factor in mail, drops
  // those whose factor is 0, and marks the keys that count in mail only
  // next to a real sign as context (Finding::requires_context). With
  // `verified_sender`, also drops the body and subject findings that a
  // verified brand sender makes truthfully (other header findings stay). A mail
  // whose links go to `linked_sites` different sites, at least
  // link_spread.min_sites of them, is a digest or newsletter: what its
  // links look like is scaled by link_spread.link_strength and the other
  // signs of its body by link_spread.text_strength (header findings stay).
  // So is a mail with `links` different links, at least
  // link_spread.min_links of them (one click-tracking site may carry them
  // all). A mail quoting `quoted_lines` lines of an earlier message, at
  // least reply_quote.min_lines of them, answers a conversation: the signs
  // of its body are scaled by reply_quote.text_strength.
  void apply(Findings& findings, bool verified_sender, std::size_t linked_sites = 0,
             std::size_t quoted_lines = 0, std::size_t links = 0) const;

  // A mail whose `shown` text (its text parts and what its HTML parts
  // show) says why the reader gets it ("you are receiving this because you
  // subscribed") is a newsletter the reader asked for: its advertising
  // words (subscription_notice.keys, in the body and subject) are scaled by
  // subscription_notice.strength. The caller applies this only to mails
  // without the shape of a bulk advert, whose unsubscribe lines say the
  // same of lists bought. Returns whether the mail says so.
  bool apply_subscription_notice(const std::vector<std::string_view>& shown,
                                 Findings& findings) const;
  // Whether apply_subscription_notice() could change any of `findings`
  // (one of its keys, written by the sender): when not, the caller need not
  // search the text.
  bool notice_scales_any(const Findings& findings) const;

  // Multiplies the strength of what is found inside a quoted line ("> ...")
  // of a plain-text part: someone else's words, answered.
  double quoted_strength() const { return quoted_strength_; }

  // Multiplies the strength of what a link to the sender's own site says.
  double sender_site_strength() const { return sender_site_strength_; }

 private:
  std::map<std::string, double, std::less<>> strength_;
  double sender_site_strength_ = 1;
  std::set<std::string, std::less<>> context_only_;
  std::set<std::string, std::less<>> verified_sender_claims_;
  // link_spread (optional; min_sites 0 = off).
  std::size_t spread_min_sites_ = 0;
  std::size_t spread_min_links_ = 0;  // 0 = off
  double spread_link_strength_ = 1;
  double spread_text_strength_ = 1;
  std::set<std::string, std::less<>> link_keys_;
  // subscription_notice (optional; no patterns = off).
  std::unique_ptr<RE2> notice_;
  double notice_strength_ = 1;
  std::set<std::string, std::less<>> notice_keys_;
  // reply_quote (optional; min_lines 0 = off).
  std::size_t quote_min_lines_ = 0;
  double quoted_strength_ = 1;
  double quote_text_strength_ = 1;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_MAIL_CONTEXT_H_
