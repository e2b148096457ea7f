// Who a mail was delivered to: its recipient headers and the "for <...>" of
// its Received lines. Which address that is says how a corpus was
// collected, not what the mail is: the model never reads it; the checks
// read it only to tell a mail within one organisation.
#ifndef SCAMCHECK_EMAIL_RECIPIENTS_H_
#define SCAMCHECK_EMAIL_RECIPIENTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "decode/mime.h"

namespace scamcheck::internal {

// Whether a header names recipients (To, Cc, Delivered-To, ...).
bool is_recipient_header(std::string_view name);

// Appends every address in a header value, lower case.
void addresses_in(std::string_view value, std::vector<std::string>& out);

// The addresses the mail was delivered to, lower case.
std::vector<std::string> recipient_addresses(const ParsedEmail& email);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_RECIPIENTS_H_
