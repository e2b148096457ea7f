// check_reply_elsewhere: a short letter asking the reader to write to a
// free-mail address other than its sender's, through the EmailDetector.
#include "email/reply_elsewhere.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "loaded_detector.h"
#include "normalize/normalize.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

// A text stage that finds nothing: only the mail's own checks speak.
class SilentTextStage final : public TextStage {
 public:
  Status detect_text(std::string_view, std::string_view, std::string_view, Findings&,
                     Report&) const override {
    return {};
  }
  Status detect_normalized(const NormalizedText&, std::string_view, std::string_view, Findings&,
                           Report&) const override {
    return {};
  }
  void detect_link(std::string_view, const LinkMatch&, std::string_view, Findings&,
                   Report&) const override {}
};

// The evidence of the mail's body reply_to_mismatch findings ("" if none).
std::string asked_address(const std::string& raw) {
  auto email = parse_email(raw);
  REQUIRE(email.ok());
  Findings findings;
  Report report;
  SilentTextStage stage;
  REQUIRE(testing::loaded_detector().detect(*email, stage, findings, report).ok());
  for (const Finding& f : findings) {
    if (f.key != "reply_to_mismatch" || f.location.rfind("body", 0) != 0) continue;
    const std::string_view text = email->text_of(f.location);
    REQUIRE(f.end <= text.size());
    return std::string(text.substr(f.start, f.end - f.start));
  }
  return "";
}

const std::string kLure =
    "Good morning,\r\n\r\nI would like to discuss a proposal that could interest you.\r\n"
    "If you wish to hear more, answer me and I will explain everything.\r\n\r\n";

}  // namespace

TEST_CASE("a short letter asking to write to another free-mail address") {
  CHECK(asked_address("From: Office <office@harbour-hotel.example>\r\nSubject: Hello\r\n\r\n" +
                      kLure + "Email: j.marlow.1962@outlook.com\r\n\r\nJ. Marlow\r\n") ==
        "j.marlow.1962@outlook.com");
  CHECK(asked_address("From: office@harbour-hotel.example\r\nSubject: Hello\r\n\r\n" + kLure +
                      "Please write to my private address j.marlow.1962@gmail.com\r\n") ==
        "j.marlow.1962@gmail.com");
  // In an HTML part: the address's span in the HTML source.
  CHECK(asked_address("From: office@harbour-hotel.example\r\nSubject: Hello\r\n"
                      "Content-Type: text/html; charset=utf-8\r\n\r\n<p>" +
                      kLure + "</p><p>E-mail:&nbsp; <b>j.marlow.1962@yahoo.com</b></p>\r\n") ==
        "j.marlow.1962@yahoo.com");
}

TEST_CASE("the sender's own address, a company address or an address not asked for do not count") {
  // The sender's own mailbox, in From or in Reply-To.
  CHECK(asked_address("From: J. Marlow <j.marlow.1962@gmail.com>\r\nSubject: Hello\r\n\r\n" +
                      kLure + "Email: j.marlow.1962@gmail.com\r\n") == "");
  CHECK(asked_address("From: office@harbour-hotel.example\r\n"
                      "Reply-To: j.marlow.1962@gmail.com\r\nSubject: Hello\r\n\r\n" +
                      kLure + "Email: J.Marlow.1962@gmail.com\r\n") == "");
  // Not a free-mail mailbox.
  CHECK(asked_address("From: office@harbour-hotel.example\r\nSubject: Hello\r\n\r\n" + kLure +
                      "Email: bookings@harbour-group.example\r\n") == "");
  // The reader's own address, or one merely named.
  CHECK(asked_address("From: office@harbour-hotel.example\r\nSubject: Hello\r\n\r\n" + kLure +
                      "This message was sent to your address anna.k@gmail.com\r\n") == "");
  CHECK(asked_address("From: noreply@files.example\r\nSubject: A file for you\r\n\r\n"
                      "Anna K (anna.k@gmail.com) shared a file with you.\r\n") == "");
}

TEST_CASE("replies, forwards, lists, form notifications and long mail are left alone") {
  const std::string ask = "Email: j.marlow.1962@outlook.com\r\n";
  // A reply quotes other people's addresses.
  CHECK(asked_address("From: office@harbour-hotel.example\r\nSubject: Re: Hello\r\n\r\n" + kLure +
                      ask) == "");
  CHECK(asked_address("From: office@harbour-hotel.example\r\nIn-Reply-To: <1@x.example>\r\n"
                      "Subject: Hello\r\n\r\n" +
                      kLure + ask) == "");
  // A forward names the forwarded message's sender.
  CHECK(asked_address("From: office@harbour-hotel.example\r\nSubject: Fwd: Hello\r\n\r\n"
                      "See below.\r\n\r\n---------- Forwarded message ---------\r\n"
                      "From: J. Marlow <j.marlow.1962@outlook.com>\r\nSubject: Hello\r\n\r\n" +
                      kLure + ask) == "");
  // A mailing list names its members.
  CHECK(asked_address("From: office@harbour-hotel.example\r\nList-Id: <club.lists.example>\r\n"
                      "Subject: Hello\r\n\r\n" +
                      kLure + ask) == "");
  // A form's notification carries the visitor's address.
  CHECK(asked_address("From: forms@harbour-hotel.example\r\nSubject: New enquiry\r\n\r\n"
                      "Name: Jo Marlow\r\nEmail: j.marlow.1962@outlook.com\r\n"
                      "Message: Do you have a room on 3 May? Please reply by email.\r\n") == "");
  // A long letter (a newsletter, a report) is not a short lure.
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "Our garden club met on Sunday again.\r\n";
  CHECK(asked_address("From: office@harbour-hotel.example\r\nSubject: Hello\r\n\r\n" + long_text +
                      ask) == "");
}
