// AttachmentChecker (declared in email_checks.h) and the pieces it is built
// from, exposed for tests.
//
// Findings (location: EmailPart::location, "attachment:<filename>"; spans
// into EmailPart::filename):
// - dangerous_attachment: a type that runs code (lists/attachment_types.txt
//   tags "dangerous" and "macro"), a Windows executable by its content
//   ("MZ"), or a web page / SVG holding a form, a password field or a
//   redirecting script. Evidence: the file name (without a leading path).
// - double_extension: a real extension hidden behind a harmless-looking one
//   ("invoice.pdf.exe", "scan.jpg     .scr"), a right-to-left override or
//   other bidi control in the name, or content that contradicts a harmless
//   extension (a program or ZIP archive named ".pdf"). Evidence: the name
//   from the hiding extension (or the bidi control) to the end.
// - archive_lure: an archive named like an invoice, order, payment or
//   document ("Rechnung_0815.zip"). Evidence: the file name.
// - archive_password: with an archive attached, a body part that gives a
//   password ("Passwort: 1234", "the password for the attachment is
//   INV2024"). Location: the body part; evidence: the statement from the
//   word "password" to the password itself, as written in that part (for
//   HTML parts, in the source, tags in between included).
// Attachments without a file name cannot be quoted and give no findings.
#ifndef SCAMCHECK_EMAIL_ATTACHMENTS_H_
#define SCAMCHECK_EMAIL_ATTACHMENTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "data/data_source.h"
#include "email/email_checks.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

namespace attachment_keys {
inline constexpr std::string_view kDangerousAttachment = "dangerous_attachment";
inline constexpr std::string_view kDoubleExtension = "double_extension";
inline constexpr std::string_view kArchiveLure = "archive_lure";
inline constexpr std::string_view kArchivePassword = "archive_password";
}  // namespace attachment_keys

// lists/attachment_types.txt, parsed.
struct AttachmentTypes {
  std::unordered_map<std::string, double> dangerous;  // extension -> strength
  std::unordered_map<std::string, double> macro;
  std::unordered_map<std::string, double> html;
  std::unordered_map<std::string, double> archive;
  std::unordered_map<std::string, double> decoy;
  std::unordered_map<std::string, double> zipbased;
  std::vector<std::string> lures;  // lower case

  static Result<AttachmentTypes> load(const DataSource& data);
};

// A file name taken apart the way Windows shows it.
struct FileName {
  std::size_t base = 0;  // start of the name after any path ('/', '\\')
  std::size_t end = 0;   // end without trailing spaces and dots (ignored by Windows)
  std::string ext;       // the real extension, lower case ("" if none)
  std::size_t ext_dot = std::string::npos;  // its dot
  std::string inner;  // the extension before it, lower case, spaces trimmed ("pdf")
  std::size_t inner_dot = std::string::npos;  // its dot
  std::size_t spaces_before_ext = 0;          // longest run of blanks right before ext_dot
  std::size_t bidi = std::string::npos;       // first bidi control character (U+202E, ...)
};
FileName split_file_name(std::string_view name);

// The first statement of a password in `text` (a text part, or an HTML
// part's source when `html`) that has archive or attachment words nearby:
// [start, end) from the password word to the password. False if none.
bool find_archive_password(std::string_view text, bool html, std::size_t& start, std::size_t& end);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_ATTACHMENTS_H_
