#include "email/mail_context.h"

#include <algorithm>
#include <cstdint>

#include "util/ascii.h"
#include "util/json.h"

namespace scamcheck::internal {
namespace {

// What the sender writes: the body and the subject (other header findings
// are about how the mail travelled).
bool written_by_sender(const Finding& f) {
  return f.location.rfind("header:", 0) != 0 || starts_with_ci(f.location, "header:subject");
}

}  // namespace

Result<std::unique_ptr<MailContext>> MailContext::load(
    const DataSource& data, const std::function<bool(std::string_view)>& known_key) {
  static constexpr std::string_view kPath = "email.json";
  Result<std::string> text = data.read(kPath);
  if (!text.ok()) return text.status();
  const std::string name = data.describe(kPath);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (Status s = parse_data_file(parser, *text, name, doc); !s.ok()) return s;

  std::unique_ptr<MailContext> context(new MailContext());
  simdjson::dom::object strength;
  simdjson::dom::array context_only, claims;
  if (doc["strength"].get_object().get(strength) ||
      doc["context_only"].get_array().get(context_only) ||
      doc["verified_sender_claims"].get_array().get(claims) ||
      doc["sender_site_strength"].get_double().get(context->sender_site_strength_)) {
    return Status::invalid_argument(name +
                                    ": needs object \"strength\", arrays \"context_only\" "
                                    "and \"verified_sender_claims\", number "
                                    "\"sender_site_strength\"");
  }
  std::string problems;
  if (context->sender_site_strength_ < 0 || context->sender_site_strength_ > 1) {
    problems += name + ": sender_site_strength must be in [0, 1]; ";
  }
  for (auto [key, value] : strength) {
    double factor = -1;
    if (!known_key(key)) {
      problems += name + ": unknown key '" + std::string(key) + "' in strength; ";
    } else if (value.get_double().get(factor) || factor < 0 || factor > 4) {
      problems += name + ": strength of '" + std::string(key) + "' must be a number in [0, 4]; ";
    } else {
      context->strength_.emplace(std::string(key), factor);
    }
  }
  auto read_keys = [&](simdjson::dom::array keys, std::string_view field,
                       std::set<std::string, std::less<>>& into) {
    for (simdjson::dom::element e : keys) {
      std::string_view key;
      if (e.get_string().get(key) || !known_key(key)) {
        problems += name + ": " + std::string(field) + " holds an unknown key; ";
        continue;
      }
      into.emplace(key);
    }
  };
  read_keys(context_only, "context_only", context->context_only_);
  read_keys(claims, "verified_sender_claims", context->verified_sender_claims_);
  // Optional: how a mail linking to many different sites reads.
  simdjson::dom::object spread;
  if (!doc["link_spread"].get_object().get(spread)) {
    std::int64_t min_sites = 0;
    simdjson::dom::array link_keys;
    if (spread["min_sites"].get_int64().get(min_sites) || min_sites < 0 ||
        spread["link_strength"].get_double().get(context->spread_link_strength_) ||
        spread["text_strength"].get_double().get(context->spread_text_strength_) ||
        spread["link_keys"].get_array().get(link_keys) || context->spread_link_strength_ < 0 ||
        context->spread_link_strength_ > 1 || context->spread_text_strength_ < 0 ||
        context->spread_text_strength_ > 1) {
      problems += name +
                  ": link_spread needs integer min_sites >= 0, link_strength and "
                  "text_strength in [0, 1] and array link_keys; ";
    } else {
      context->spread_min_sites_ = static_cast<std::size_t>(min_sites);
      read_keys(link_keys, "link_spread.link_keys", context->link_keys_);
      // Optional: so many different links that the mail is a newsletter
      // even when one click-tracking site carries them all.
      std::int64_t min_links = 0;
      if (spread["min_links"].get_int64().get(min_links) == simdjson::SUCCESS) {
        if (min_links < 0) {
          problems += name + ": link_spread.min_links must be an integer >= 0; ";
        } else {
          context->spread_min_links_ = static_cast<std::size_t>(min_links);
        }
      } else if (spread["min_links"].error() != simdjson::NO_SUCH_FIELD) {
        problems += name + ": link_spread.min_links must be an integer >= 0; ";
      }
    }
  }
  // Optional: how a reply quoting an earlier message reads.
  simdjson::dom::object quote;
  if (!doc["reply_quote"].get_object().get(quote)) {
    std::int64_t min_lines = 0;
    if (quote["min_lines"].get_int64().get(min_lines) || min_lines < 0 ||
        quote["quoted_strength"].get_double().get(context->quoted_strength_) ||
        quote["text_strength"].get_double().get(context->quote_text_strength_) ||
        context->quoted_strength_ < 0 || context->quoted_strength_ > 1 ||
        context->quote_text_strength_ < 0 || context->quote_text_strength_ > 1) {
      problems += name +
                  ": reply_quote needs integer min_lines >= 0, quoted_strength and "
                  "text_strength in [0, 1]; ";
    } else {
      context->quote_min_lines_ = static_cast<std::size_t>(min_lines);
    }
  }
  // Optional: a mail that says the reader subscribed to it.
  simdjson::dom::object notice;
  if (!doc["subscription_notice"].get_object().get(notice)) {
    simdjson::dom::array patterns, keys;
    if (notice["patterns"].get_array().get(patterns) ||
        notice["strength"].get_double().get(context->notice_strength_) ||
        notice["keys"].get_array().get(keys) || context->notice_strength_ < 0 ||
        context->notice_strength_ > 1) {
      problems += name +
                  ": subscription_notice needs arrays patterns and keys and strength in "
                  "[0, 1]; ";
    } else {
      read_keys(keys, "subscription_notice.keys", context->notice_keys_);
      std::string any;
      for (simdjson::dom::element e : patterns) {
        std::string_view pattern;
        if (e.get_string().get(pattern) || !RE2(pattern, RE2::Quiet).ok()) {
          problems += name + ": subscription_notice.patterns holds an invalid RE2 pattern; ";
          continue;
        }
        any += (any.empty() ? "(?:" : "|(?:") + std::string(pattern) + ")";
      }
      if (!any.empty()) {
        RE2::Options options(RE2::Quiet);
        options.set_case_sensitive(false);
        context->notice_ = std::make_unique<RE2>(any, options);
      }
    }
  }
  if (!problems.empty()) return Status::invalid_argument(problems);
  return context;
}

bool MailContext::apply_subscription_notice(const std::vector<std::string_view>& shown,
                                            Findings& findings) const {
  if (!notice_) return false;
  const bool says = std::any_of(shown.begin(), shown.end(), [&](std::string_view text) {
    return RE2::PartialMatch(text, *notice_);
  });
  if (!says) return false;
  for (Finding& f : findings) {
    if (written_by_sender(f) && notice_keys_.count(f.key) > 0) f.strength *= notice_strength_;
  }
  return true;
}

bool MailContext::notice_scales_any(const Findings& findings) const {
  return notice_ && std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
           return written_by_sender(f) && notice_keys_.count(f.key) > 0;
         });
}

void MailContext::apply(Findings& findings, bool verified_sender, std::size_t linked_sites,
                        std::size_t quoted_lines, std::size_t links) const {
  std::erase_if(findings, [&](const Finding& f) {
    return verified_sender && written_by_sender(f) && verified_sender_claims_.count(f.key) > 0;
  });
  const bool digest = (spread_min_sites_ > 0 && linked_sites >= spread_min_sites_) ||
                      (spread_min_links_ > 0 && links >= spread_min_links_);
  const bool reply = quote_min_lines_ > 0 && quoted_lines >= quote_min_lines_;
  for (Finding& f : findings) {
    // The text pipeline's signs as a mail reads them; header checks (the
    // From domain's look, say) are about the sender and keep their weight.
    if (written_by_sender(f)) {
      auto it = strength_.find(f.key);
      if (it != strength_.end()) f.strength *= it->second;
      if (context_only_.count(f.key) > 0) f.requires_context = true;
    }
    if (digest && f.location.rfind("header:", 0) != 0) {
      f.strength *= link_keys_.count(f.key) > 0 ? spread_link_strength_ : spread_text_strength_;
    }
    if (reply && f.location.rfind("header:", 0) != 0) f.strength *= quote_text_strength_;
  }
  std::erase_if(findings, [](const Finding& f) { return f.strength <= 0; });
}

}  // namespace scamcheck::internal
