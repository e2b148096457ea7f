// The header checks (HeaderChecker, declared in email/email_checks.h):
// the glossary keys they emit and what each one means here.
//
// Which brand a sender claims comes from the From header only: the brand
// named in its display name (DisplayNameBrands), the brand whose official
// domain the address is on (freemail domains such as outlook.com or
// gmail.com excepted: anyone can write from them), or the brand its domain
// imitates. Several checks apply only to such senders, because for
// ordinary mail the same facts (a Return-Path at a newsletter service, a
// Message-ID of the mail host) are everyday. All domains are compared as
// registrable domains (eTLD+1, lower case, IDN as punycode); two domains
// belong to the same organisation when they are equal, share their first
// label ("example.com", "example.de"), or are official domains of one brand.
// Recipient headers (To, Cc, Bcc, Delivered-To, X-Original-To, Envelope-To)
// and mbox envelope lines are never read.
#ifndef SCAMCHECK_EMAIL_HEADERS_H_
#define SCAMCHECK_EMAIL_HEADERS_H_

#include <string_view>

namespace scamcheck::internal::header_keys {

// From's display name names a brand (or holds a brand's address, or is
// itself another address) while the address is not on that brand's
// official domains. Evidence: the brand name / address in the display name.
// A display name that is only a domain name plus service words ("example.com
// IT Support") on another domain counts at strength 0.4.
inline constexpr std::string_view kDisplayNameImpersonation = "display_name_impersonation";
// From's domain imitates a brand (URL stage's brand_lookalike on the
// domain). Evidence: the domain. Strength: brand_lookalike's.
inline constexpr std::string_view kSenderLookalikeDomain = "sender_lookalike_domain";
// Replies go elsewhere: a Reply-To at a freemail provider for a sender
// that is not the same mailbox provider (mailing lists excepted), or any
// unrelated Reply-To for a sender claiming a brand from a domain that is not
// the brand's (platforms on their own domains legitimately set their users
// as Reply-To). Evidence: the address. The same key marks a short letter's
// request to write to another free-mail address (email/reply_elsewhere.h).
inline constexpr std::string_view kReplyToMismatch = "reply_to_mismatch";
// A sender claiming a brand whose Return-Path is on an unrelated domain
// that is no sending service. Evidence: the Return-Path domain. Like
// reply_to_mismatch and message_id_mismatch, not for mail through a mailing
// list (List-Id, List-Post, Mailing-List), which re-sends its members' mail.
inline constexpr std::string_view kReturnPathMismatch = "return_path_mismatch";
// A sender claiming a brand and failed or missing SPF / DKIM / DMARC in the
// topmost Authentication-Results, ARC-Authentication-Results or
// Received-SPF (the ones the final receiver wrote); a passing DMARC, or a
// passing DKIM for SPF results, clears them. Evidence: the strongest result
// token ("dmarc=fail", "Softfail"); strength 1.0 for dmarc=fail down to 0.5
// for a missing SPF record or signature.
inline constexpr std::string_view kAuthFailure = "auth_failure";
// A sender claiming a brand whose Message-ID was made on an unrelated
// domain that is no mail service. Evidence: the Message-ID domain.
inline constexpr std::string_view kMessageIdMismatch = "message_id_mismatch";
// A Received line whose HELO name is a brand's domain while the connecting
// host is not, or that gives an impossible IPv4 address. Evidence: the
// HELO name or the address.
inline constexpr std::string_view kReceivedChainAnomaly = "received_chain_anomaly";
// A Date that cannot be read, is impossible (month 13, year before 1990)
// or lies more than a day after the newest Received date. A missing Date is
// no evidence. Evidence: the Date value.
inline constexpr std::string_view kUnusualDate = "unusual_date";
// A From line that no mail program writes: a quoted display name followed
// by a comma and stray text or nothing before the address ("Shop",xyz
// <a@b.example>, "Shop", <a@b.example>),
// the mark of bulk-mail tools filling templates. Evidence: the display name
// through the stray text.
inline constexpr std::string_view kMalformedFrom = "malformed_from";

}  // namespace scamcheck::internal::header_keys

#endif  // SCAMCHECK_EMAIL_HEADERS_H_
