// E-mail detection: the headers; the subject and each part through the text
// stage (an HTML part as the text it shows, and its links by their href);
// the attachments; then what the mail's context and shape say (a reply's
// quoted lines, links to the sender's own site, a newsletter, an advert).
#ifndef SCAMCHECK_EMAIL_EMAIL_DETECTOR_H_
#define SCAMCHECK_EMAIL_EMAIL_DETECTOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "data/data_source.h"
#include "decode/mime.h"
#include "email/email_checks.h"
#include "email/mail_context.h"
#include "text_stage.h"
#include "url/url_analyzer.h"

namespace scamcheck::internal {

class EmailDetector {
 public:
  // `known_key` says whether a signal key exists (the glossary). Keeps a
  // reference to `urls`, which must outlive the detector.
  static Result<std::unique_ptr<EmailDetector>> load(
      const DataSource& data, const UrlAnalyzer& urls,
      const std::function<bool(std::string_view)>& known_key);

  // The findings of a decoded mail; the URLs of its links go to report.urls
  // (one entry per URL). Spans index the header and part texts of `email`.
  // `sender` (if given) receives what the stage found out about the
  // sender (MailSender).
  Status detect(const ParsedEmail& email, const TextStage& text, Findings& findings, Report& report,
                MailSender* sender = nullptr) const;

  // What a link to the sender's own site weighs (email.json).
  double sender_site_strength() const { return mail_->sender_site_strength(); }
  const HtmlChecker& html() const { return *html_; }

 private:
  EmailDetector() = default;

  // Returns the text the part shows a reader (kept in part.visible).
  std::string_view detect_html(const EmailPart& part, std::string_view sender_site,
                               const TextStage& text, Findings& findings, Report& report) const;

  const UrlAnalyzer* urls_ = nullptr;
  std::unique_ptr<HeaderChecker> headers_;
  std::unique_ptr<HtmlChecker> html_;
  std::unique_ptr<AttachmentChecker> attachments_;
  std::unique_ptr<MailContext> mail_;
};

// input_tokens of an email: the word runs of the texts analysed (decoded
// header values and parts), since its raw bytes need not be UTF-8.
std::int64_t count_email_tokens(const ParsedEmail& email);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_EMAIL_DETECTOR_H_
