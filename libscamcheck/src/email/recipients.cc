#include "email/recipients.h"

#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

// Header names whose addresses are the recipient's.
constexpr std::string_view kRecipientHeaders[] = {"To",
                                                  "Cc",
                                                  "Bcc",
                                                  "Delivered-To",
                                                  "X-Original-To",
                                                  "Envelope-To",
                                                  "X-Envelope-To",
                                                  "Apparently-To",
                                                  "Resent-To",
                                                  "X-Rcpt-To"};

bool is_address_byte(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

}  // namespace

bool is_recipient_header(std::string_view name) {
  for (std::string_view h : kRecipientHeaders) {
    if (equals_ci(h, name)) return true;
  }
  return false;
}

void addresses_in(std::string_view value, std::vector<std::string>& out) {
  for (std::size_t at = value.find('@'); at != std::string_view::npos;
       at = value.find('@', at + 1)) {
    std::size_t a = at;
    while (a > 0 && is_address_byte(value[a - 1])) --a;
    std::size_t b = at + 1;
    while (b < value.size() && is_address_byte(value[b])) ++b;
    while (b > at + 1 && value[b - 1] == '.') --b;
    if (a == at || b == at + 1) continue;
    std::string address(value.substr(a, b - a));
    for (char& c : address) c = ascii_lower(c);
    out.push_back(std::move(address));
  }
}

std::vector<std::string> recipient_addresses(const ParsedEmail& email) {
  std::vector<std::string> recipients;
  for (const EmailHeader& h : email.headers) {
    if (is_recipient_header(h.name)) {
      addresses_in(h.value, recipients);
    } else if (equals_ci(h.name, "Received")) {
      if (const std::size_t f = h.value.find("for <"); f != std::string::npos) {
        addresses_in(std::string_view(h.value).substr(f + 5, h.value.find('>', f) - f - 5),
                     recipients);
      }
    }
  }
  return recipients;
}

}  // namespace scamcheck::internal
