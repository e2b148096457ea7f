// HeaderChecker: the header signals of an email (see email/headers.h for
// what each key means and why most of them need a sender claiming a brand).
#include "email/headers.h"

#include <algorithm>
#include <string>
#include <vector>

#include "email/email_checks.h"
#include "email/header_names.h"
#include "email/header_parse.h"
#include "email/recipients.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

bool two_letter_tld(std::string_view registrable) {
  std::size_t dot = registrable.rfind('.');
  return dot != std::string_view::npos && registrable.size() - dot - 1 == 2;
}

std::string_view first_label(std::string_view registrable) {
  return registrable.substr(0, registrable.find('.'));
}

// Whether the display name text[name) names the organisation of the
// sender's own domain, outside the brands it mentions: "Lockergnome Apple
// Core" <x@lockergnome.com> is a publication of lockergnome.com that
// mentions Apple, not a claim to be Apple. The domain's name (its first
// label, at least 4 letters or digits) must be a word of the display name.
bool names_own_domain(std::string_view text, Span name, std::string_view registrable,
                      const std::vector<DisplayNameBrands::Claim>& claims) {
  const std::string_view label = first_label(registrable);
  if (label.size() < 4 || is_service_word(label)) return false;
  const std::string_view shown = name.of(text);
  // A word of its own, not part of an address or a domain in the name.
  const auto joined = [](char c) { return c == '@' || c == '.' || c == '-' || c == '_'; };
  std::size_t i = 0;
  while (i < shown.size()) {
    if (!is_alnum(shown[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < shown.size() && is_alnum(shown[j])) ++j;
    const std::size_t start = name.start + i;
    const bool in_claim = std::any_of(claims.begin(), claims.end(), [&](const auto& c) {
      return start >= c.span.start && start < c.span.end;
    });
    const bool word = (i == 0 || !joined(shown[i - 1])) && (j == shown.size() || !joined(shown[j]));
    if (!in_claim && word && j - i == label.size() &&
        lower_ascii(shown.substr(i, j - i)) == label) {
      return true;
    }
    i = j;
  }
  return false;
}

// The second-level domains reserved for documentation (RFC 2606): corpora
// and test mail put them where the real address was removed.
bool reserved_domain(std::string_view reg) {
  return reg == "example.com" || reg == "example.net" || reg == "example.org";
}

class HeaderCheckerImpl final : public HeaderChecker {
 public:
  HeaderCheckerImpl(const UrlAnalyzer& urls, MailProviders providers)
      : urls_(urls),
        brands_(urls.brand_table()),
        names_(urls.brand_table()),
        providers_(std::move(providers)) {}

  void check(const ParsedEmail& email, Findings& out) const override;
  std::string verified_sender_site(const ParsedEmail& email) const override;
  std::string sender_site(const ParsedEmail& email) const override;
  bool freemail_mailbox(std::string_view domain) const override {
    return is_mailbox_at_provider(domain, registrable(domain));
  }

 private:
  // What the From header says about the sender.
  struct Sender {
    const EmailHeader* header = nullptr;
    Mailbox box;
    std::string reg;          // registrable domain of the address ("" if none)
    bool freemail = false;    // a personal mailbox at a freemail provider
    std::vector<int> brands;  // brands the sender claims to be
    // The address is on a brand's official domain (or a brand's own
    // sending domain): the mail comes from the brand's systems unless the
    // From is forged, which auth_failure is about.
    bool official = false;
    bool claims_brand() const { return !brands.empty(); }
  };

  // Registrable domain of a host written in a header; "" for none and for
  // the documentation domains.
  std::string registrable(std::string_view host) const {
    std::string reg = urls_.registrable_domain(host);
    if (reserved_domain(reg)) reg.clear();
    return reg;
  }
  bool official_for(int brand, std::string_view reg) const {
    return !reg.empty() && brands_.is_official_for(brand, reg, two_letter_tld(reg));
  }
  // The first brand whose official domain `reg` is, or -1.
  int official_brand(std::string_view reg) const {
    if (reg.empty() || !brands_.is_official(reg, two_letter_tld(reg))) return -1;
    for (std::size_t b = 0; b < brands_.brands().size(); ++b) {
      if (official_for(static_cast<int>(b), reg)) return static_cast<int>(b);
    }
    return -1;
  }
  // Whether an address at `domain` (registrable domain `reg`) is a
  // personal mailbox at a freemail provider: "x@gmail.com", not the
  // provider's own "news@reply.yahoo.com".
  bool is_mailbox_at_provider(std::string_view domain, std::string_view reg) const {
    return (providers_.tags(reg) & MailProviders::kFreemail) != 0 && domain.size() == reg.size();
  }
  // Whether `reg` is an official domain of one of the sender's brands.
  bool official_for_claim(const Sender& s, std::string_view reg) const {
    if (providers_.tags(reg) & MailProviders::kFreemail) return false;
    for (int b : s.brands) {
      if (official_for(b, reg)) return true;
    }
    return false;
  }
  bool same_org(std::string_view a, std::string_view b) const {
    if (a.empty() || b.empty()) return false;
    if (a == b) return true;
    std::string_view la = first_label(a), lb = first_label(b);
    if (la == lb && la.size() >= 3) return true;
    int ba = official_brand(a);
    return ba >= 0 && official_for(ba, b);
  }
  static void emit(std::string_view key, const EmailHeader& h, Span span, double strength,
                   Findings& out) {
    if (span.empty() || span.end > h.value.size()) return;
    Finding f = Finding::at(std::string(key), span.start, span.end, h.location());
    f.strength = strength;
    out.push_back(std::move(f));
  }

  // The From address alone: header, mailbox, registrable domain, freemail,
  // the brand whose official domain it is. All that sender_site() and
  // verified_sender_site() need; false without a From header.
  bool read_address(const ParsedEmail& email, Sender& s) const;
  // The address, then what the display name and the domain claim.
  void read_sender(const ParsedEmail& email, Sender& s, Findings& out) const;
  void check_reply_to(const ParsedEmail& email, const Sender& s, Findings& out) const;
  void check_return_path(const ParsedEmail& email, const Sender& s, Findings& out) const;
  void check_auth(const ParsedEmail& email, const Sender& s, Findings& out) const;
  void check_message_id(const ParsedEmail& email, const Sender& s, Findings& out) const;
  void check_received(const ParsedEmail& email, Findings& out) const;
  void check_date(const ParsedEmail& email, Findings& out) const;
  static void check_from_syntax(const ParsedEmail& email, Findings& out);
  void check_sender_host(const Sender& s, Findings& out) const;

  const UrlAnalyzer& urls_;
  const BrandTable& brands_;
  DisplayNameBrands names_;
  MailProviders providers_;
};

void HeaderCheckerImpl::check(const ParsedEmail& email, Findings& out) const {
  Sender sender;
  read_sender(email, sender, out);
  check_sender_host(sender, out);
  // A mailing list re-sends its members' mail: its own Return-Path and
  // Message-ID, replies to the list or the poster. Phishing does not come
  // through list servers.
  bool list = !email.find("List-Id").empty() || !email.find("List-Post").empty() ||
              !email.find("Mailing-List").empty();
  if (!list) {
    check_reply_to(email, sender, out);
    check_return_path(email, sender, out);
    check_message_id(email, sender, out);
  }
  check_auth(email, sender, out);
  check_received(email, out);
  check_date(email, out);
  check_from_syntax(email, out);
}

std::string HeaderCheckerImpl::sender_site(const ParsedEmail& email) const {
  Sender sender;
  read_address(email, sender);
  return sender.freemail ? std::string() : sender.reg;
}

namespace {

// The receiving server's topmost Authentication-Results says dmarc=pass.
bool dmarc_passed(const ParsedEmail& email) {
  std::vector<const EmailHeader*> results = email.find("Authentication-Results");
  if (results.empty()) return false;
  for (const AuthResult& r : parse_auth_results(results.front()->value)) {
    if (r.method == AuthResult::Method::kDmarc && lower_ascii(r.result) == "pass") return true;
  }
  return false;
}

}  // namespace

std::string HeaderCheckerImpl::verified_sender_site(const ParsedEmail& email) const {
  Sender sender;
  if (!read_address(email, sender) || sender.freemail || sender.reg.empty()) return {};
  auto colleague = [&] {
    const std::vector<std::string> recipients = recipient_addresses(email);
    return std::any_of(recipients.begin(), recipients.end(), [&](const std::string& address) {
      return registrable(std::string_view(address).substr(address.find('@') + 1)) == sender.reg;
    });
  };
  return (sender.official || colleague()) && dmarc_passed(email) ? sender.reg : std::string();
}

bool HeaderCheckerImpl::read_address(const ParsedEmail& email, Sender& s) const {
  std::vector<const EmailHeader*> from = email.find("From");
  if (from.empty()) return false;
  s.header = from.front();
  const std::string& v = s.header->value;
  s.box = parse_mailbox(v);
  std::string_view domain = s.box.domain.of(v);
  s.reg = registrable(domain);
  s.freemail = is_mailbox_at_provider(domain, s.reg);

  // The brand whose domain the address is on (a freemail address is
  // nobody's official sender).
  int domain_brand = s.freemail ? -1 : official_brand(s.reg);
  if (domain_brand >= 0) s.brands.push_back(domain_brand);
  bool brand_mail = (providers_.tags(s.reg) & MailProviders::kBrandMail) != 0;
  s.official = domain_brand >= 0 || brand_mail;
  return true;
}

void HeaderCheckerImpl::read_sender(const ParsedEmail& email, Sender& s, Findings& out) const {
  if (!read_address(email, s)) return;
  const std::string& v = s.header->value;
  std::string_view domain = s.box.domain.of(v);
  bool brand_mail = (providers_.tags(s.reg) & MailProviders::kBrandMail) != 0;

  // display_name_impersonation. First an address in the display name: a
  // brand's address, or the whole display name being another address than
  // the real one ("service@paypal.com" <x@example.net>).
  bool impersonation = false;
  const Span name = s.box.name;
  if (!name.empty()) {
    for (const NameAddress& na : addresses_in(v, name)) {
      std::string reg = registrable(na.domain.of(v));
      if (reg.empty() || same_org(reg, s.reg)) continue;
      bool whole = na.address.start == name.start && na.address.end == name.end;
      int brand = is_mailbox_at_provider(na.domain.of(v), reg) ? -1 : official_brand(reg);
      if (brand >= 0 && std::find(s.brands.begin(), s.brands.end(), brand) == s.brands.end()) {
        s.brands.push_back(brand);
      }
      if (whole || brand >= 0) {
        emit(header_keys::kDisplayNameImpersonation, *s.header, na.address, 1.0, out);
        impersonation = true;
        break;
      }
    }
  }
  // Then a brand named in it, unless the address is on one of the named
  // brands' official domains.
  if (!name.empty()) {
    std::vector<DisplayNameBrands::Claim> claims;
    names_.find(v, name, claims);
    bool any_official = false;
    for (const auto& c : claims) {
      if (!s.freemail && official_for(c.brand, s.reg)) any_official = true;
      if (std::find(s.brands.begin(), s.brands.end(), c.brand) == s.brands.end()) {
        s.brands.push_back(c.brand);
      }
    }
    if (!impersonation && !claims.empty() && !any_official && !brand_mail &&
        !names_own_domain(v, name, s.reg, claims)) {
      emit(header_keys::kDisplayNameImpersonation, *s.header, claims.front().span, 1.0, out);
      impersonation = true;
    }
  }

  // A domain name shown as the sender ("Ourtime.com", "proton.me
  // Helpdesk") that is not the address's own: a weaker claim than a
  // brand's name, since any organisation can be named so (0.4: alone it
  // stays below the suspicious line). Only a name that is nothing but the
  // domain and service words: "CNET News.com Daily Dispatch" names a
  // publication, not a sender.
  if (!impersonation && !name.empty()) {
    for (const Span& d : domains_in(v, name)) {
      if (!only_service_words(v, name, d)) continue;
      // Unfiltered: a documentation domain shown as the sender is as much
      // a claim as any other (and results must not change when a corpus
      // replaces its recipients' domain by one).
      std::string reg = urls_.registrable_domain(d.of(v));
      if (reg.empty() || reg == urls_.registrable_domain(domain) || same_org(reg, s.reg)) {
        continue;
      }
      emit(header_keys::kDisplayNameImpersonation, *s.header, d, 0.4, out);
      impersonation = true;
      break;
    }
  }

  // sender_lookalike_domain: the address's domain imitates a brand.
  if (!domain.empty() && !s.reg.empty() && !s.official && providers_.tags(s.reg) == 0) {
    UrlAnalyzer::DomainLookalike la = urls_.lookalike_brand(domain);
    // A brand glued into another word ("shagmail", "verizonmail") and
    // two-letter brand names among random characters ("x-8fb71") are too
    // weak for a sender, whose domain is chosen once for all its mail.
    bool weak = la.strength < 0.8 ||
                (la.kind == LookalikeKind::kContainsBrand && la.length > 0 && la.length < 3);
    if (la.strength > 0 && !weak) {
      emit(header_keys::kSenderLookalikeDomain, *s.header, s.box.domain, la.strength, out);
      if (la.brand >= 0 &&
          std::find(s.brands.begin(), s.brands.end(), la.brand) == s.brands.end()) {
        s.brands.push_back(la.brand);
      }
    }
  }
}

void HeaderCheckerImpl::check_reply_to(const ParsedEmail& email, const Sender& s,
                                       Findings& out) const {
  for (const EmailHeader* h : email.find("Reply-To")) {
    for (const Mailbox& m : parse_mailbox_list(h->value)) {
      std::string reg = registrable(m.domain.of(h->value));
      if (reg.empty() || same_org(reg, s.reg)) continue;
      bool freemail = is_mailbox_at_provider(m.domain.of(h->value), reg);
      // Platforms send for their users with the user as Reply-To (shared
      // documents, calendar invitations, signature requests, marketplace
      // messages): a brand's own systems say nothing here.
      bool flag = false;
      if (s.official) {
        flag = false;
      } else if (s.claims_brand()) {
        flag = !official_for_claim(s, reg);
      } else {
        flag = freemail;
      }
      if (flag) {
        emit(header_keys::kReplyToMismatch, *h, m.address, 1.0, out);
        return;
      }
    }
  }
}

void HeaderCheckerImpl::check_return_path(const ParsedEmail& email, const Sender& s,
                                          Findings& out) const {
  if (!s.claims_brand()) return;
  std::vector<const EmailHeader*> rp = email.find("Return-Path");
  if (rp.empty()) return;
  const EmailHeader& h = *rp.front();
  Mailbox m = parse_mailbox(h.value);
  std::string reg = registrable(m.domain.of(h.value));
  if (reg.empty() || same_org(reg, s.reg) || official_for_claim(s, reg)) return;
  if (providers_.tags(reg) & (MailProviders::kEsp | MailProviders::kMailhost)) return;
  emit(header_keys::kReturnPathMismatch, h, m.domain, 1.0, out);
}

void HeaderCheckerImpl::check_auth(const ParsedEmail& email, const Sender& s, Findings& out) const {
  if (!s.claims_brand()) return;
  // How much a result says: a failed DMARC most, a missing record least.
  auto weight = [](const AuthResult& r) -> double {
    std::string res = lower_ascii(r.result);
    bool fail = res == "fail" || res == "hardfail";
    switch (r.method) {
      case AuthResult::Method::kDmarc:
        return fail ? 1.0 : res == "none" ? 0.6 : 0;
      case AuthResult::Method::kSpf:
        return fail ? 0.9 : res == "softfail" ? 0.7 : res == "none" ? 0.5 : 0;
      case AuthResult::Method::kDkim:
        return fail ? 0.8 : res == "none" ? 0.5 : 0;
    }
    return 0;
  };
  auto passes = [](const AuthResult& r, AuthResult::Method m) {
    std::string res = lower_ascii(r.result);
    return r.method == m && (res == "pass" || res == "bestguesspass");
  };
  const EmailHeader* best_header = nullptr;
  Span best_span;
  double best = 0;
  bool dkim_pass_anywhere = false;
  // Only the topmost header of each kind: the one the final receiver
  // added. Lower ones were written on the way (by the sender's own
  // systems before signing, or forged) and say less.
  auto topmost = [&](const char* name) -> const EmailHeader* {
    std::vector<const EmailHeader*> all = email.find(name);
    return all.empty() ? nullptr : all.front();
  };
  auto consider = [&](const EmailHeader& h, const AuthResult& r) {
    double w = weight(r);
    if (w > best) {
      best = w;
      best_header = &h;
      best_span = r.token;
    }
  };
  for (const char* name : {"Authentication-Results", "ARC-Authentication-Results"}) {
    const EmailHeader* h = topmost(name);
    if (h == nullptr) continue;
    std::vector<AuthResult> results = parse_auth_results(h->value);
    bool dmarc_pass = false, dkim_pass = false;
    for (const AuthResult& r : results) {
      dmarc_pass = dmarc_pass || passes(r, AuthResult::Method::kDmarc);
      dkim_pass = dkim_pass || passes(r, AuthResult::Method::kDkim);
    }
    dkim_pass_anywhere = dkim_pass_anywhere || dkim_pass || dmarc_pass;
    // A passing DMARC vouches for the From domain; a valid DKIM signature
    // makes SPF failures (forwarding) and other signatures moot.
    if (dmarc_pass) continue;
    for (const AuthResult& r : results) {
      if (dkim_pass && r.method != AuthResult::Method::kDmarc) continue;
      consider(*h, r);
    }
  }
  if (const EmailHeader* h = topmost("Received-SPF"); h != nullptr && !dkim_pass_anywhere) {
    for (const AuthResult& r : parse_received_spf(h->value)) consider(*h, r);
  }
  if (best_header != nullptr) emit(header_keys::kAuthFailure, *best_header, best_span, best, out);
}

void HeaderCheckerImpl::check_message_id(const ParsedEmail& email, const Sender& s,
                                         Findings& out) const {
  if (!s.claims_brand()) return;
  std::vector<const EmailHeader*> mid = email.find("Message-ID");
  if (mid.empty()) return;
  const EmailHeader& h = *mid.front();
  Span d = message_id_domain(h.value);
  std::string reg = registrable(d.of(h.value));
  if (reg.empty() || same_org(reg, s.reg) || official_for_claim(s, reg)) return;
  if (providers_.tags(reg) != 0) return;
  emit(header_keys::kMessageIdMismatch, h, d, 1.0, out);
}

void HeaderCheckerImpl::check_received(const ParsedEmail& email, Findings& out) const {
  std::vector<const EmailHeader*> received = email.find("Received");
  // From the first hop (the last header) up.
  for (auto it = received.rbegin(); it != received.rend(); ++it) {
    const EmailHeader& h = **it;
    ReceivedFrom r = parse_received_from(h.value);
    if (!r.valid) continue;
    Ipv4Info ip = classify_ipv4(r.ip.of(h.value));
    if (ip.dotted && !ip.valid) {
      emit(header_keys::kReceivedChainAnomaly, h, r.ip, 1.0, out);
      return;
    }
    if (r.helo.empty() || r.reverse.empty() || ip.internal || !ip.dotted) continue;
    std::string helo = registrable(r.helo.of(h.value));
    int brand = official_brand(helo);
    if (brand < 0) continue;
    std::string_view rev_text = r.reverse.of(h.value);
    std::string rev = registrable(rev_text);
    // An unqualified reverse name ("wstutil13a") is the receiver's own
    // network; "unknown" means no reverse DNS at all.
    if (!equals_ci(rev_text, "unknown") && rev_text.find('.') == std::string_view::npos) continue;
    if (rev == helo || (!rev.empty() && official_for(brand, rev))) continue;
    emit(header_keys::kReceivedChainAnomaly, h, r.helo, 1.0, out);
    return;
  }
}

// The From domain read as a link host: an address on a platform where
// anyone can get a sub-domain (*.firebaseapp.com, *.web.app) or under a
// suffix that is mostly abused (risky_tld). A company sends from its own,
// lasting name. (random_domain is left out: too many real senders' names
// read as random to it, "python.org" among them.)
void HeaderCheckerImpl::check_sender_host(const Sender& s, Findings& out) const {
  if (s.header == nullptr || s.box.domain.empty()) return;
  const std::string& v = s.header->value;
  LinkMatch host;
  host.start = s.box.domain.start;
  host.end = s.box.domain.end;
  host.url = "http://" + std::string(s.box.domain.of(v));
  Findings found;
  UrlInfo info;
  urls_.analyze(v, host, found, info);
  for (const Finding& f : found) {
    if (f.key == "free_hosting" || f.key == "risky_tld") {
      emit(f.key, *s.header, Span{f.start, f.end}, f.strength, out);
    }
  }
}

void HeaderCheckerImpl::check_date(const ParsedEmail& email, Findings& out) const {
  std::vector<const EmailHeader*> dates = email.find("Date");
  if (dates.empty()) return;
  const EmailHeader& h = *dates.front();
  std::string_view v = h.value;
  Span whole{0, v.size()};
  while (whole.start < whole.end && (v[whole.start] == ' ' || v[whole.start] == '\t')) {
    ++whole.start;
  }
  while (whole.end > whole.start && (v[whole.end - 1] == ' ' || v[whole.end - 1] == '\t' ||
                                     v[whole.end - 1] == '\r' || v[whole.end - 1] == '\n')) {
    --whole.end;
  }
  if (whole.empty()) return;
  DateTime d = parse_date(v);
  if (d.status != DateTime::Status::kOk) {
    emit(header_keys::kUnusualDate, h, whole, 1.0, out);
    return;
  }
  bool have = false;
  std::int64_t newest = 0;
  for (const EmailHeader* r : email.find("Received")) {
    DateTime rd = received_date(r->value);
    if (rd.status != DateTime::Status::kOk) continue;
    newest = have ? std::max(newest, rd.epoch) : rd.epoch;
    have = true;
  }
  if (have && d.epoch > newest + 86400) emit(header_keys::kUnusualDate, h, whole, 1.0, out);
}

void HeaderCheckerImpl::check_from_syntax(const ParsedEmail& email, Findings& out) {
  std::vector<const EmailHeader*> from = email.find("From");
  if (from.empty()) return;
  const std::string_view v = from.front()->value;
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  std::size_t i = 0;
  while (i < v.size() && blank(v[i])) ++i;
  if (i == v.size() || v[i] != '"') return;
  std::size_t close = i + 1;  // the closing quote of the display name
  while (close < v.size() && v[close] != '"') close += v[close] == '\\' ? 2 : 1;
  std::size_t comma = close + 1;
  while (comma < v.size() && blank(v[comma])) ++comma;
  if (comma >= v.size() || v[comma] != ',') return;
  const std::size_t angle = v.find('<', comma);
  if (angle == std::string_view::npos) return;
  // Between the comma and the address: nothing or stray text, not another
  // mailbox.
  const std::string_view stray = v.substr(comma + 1, angle - comma - 1);
  if (stray.find_first_of("@\"") != std::string_view::npos) return;
  std::size_t end = angle;
  while (end > comma + 1 && blank(v[end - 1])) --end;
  emit(header_keys::kMalformedFrom, *from.front(), Span{i, end}, 1.0, out);
}

}  // namespace

// `urls` must outlive the checker: it holds a reference (the analyzer owns
// both).
Result<std::unique_ptr<HeaderChecker>> HeaderChecker::load(const DataSource& data,
                                                           const UrlAnalyzer& urls) {
  Result<MailProviders> providers = MailProviders::load(data);
  if (!providers.ok()) return providers.status();
  return std::unique_ptr<HeaderChecker>(new HeaderCheckerImpl(urls, std::move(providers.value())));
}

}  // namespace scamcheck::internal
