// The Analyzer: build once, share across threads, call analyze() anywhere.
#ifndef SCAMCHECK_ANALYZER_H_
#define SCAMCHECK_ANALYZER_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scamcheck/export.h"
#include "scamcheck/options.h"
#include "scamcheck/providers.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck {

// One entry of the signal glossary (CONTRACT §6): a key analyze() can emit,
// its default severity, and its title (a noun phrase) and explanation (one
// sentence) in each locale the data pack has a catalog for.
struct GlossarySignal {
  struct Texts {
    std::string title;
    std::string explanation;
  };
  std::string key;
  Severity default_severity = Severity::kLow;
  std::map<std::string, Texts> texts;  // by catalog locale: "de", "en", ...
};

// Immutable after create(): every member function is const and safe to call
// from many threads at once without locking. Neither copyable nor movable;
// hold it in the unique_ptr create() returns (or move that into a
// shared_ptr to share it).
class SCAMCHECK_EXPORT Analyzer {
 public:
  // Loads and validates the data pack (rules, brands, catalogs, glossary).
  // Fails with a Status naming every problem found (file and rule id), never
  // with a half-built analyzer.
  static Result<std::unique_ptr<Analyzer>> create(const Options& options = {});

  virtual ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // Analyzes `content` of the given kind and returns a Report, localized for
  // `locale` (a BCP 47 tag; "de-AT" falls back to "de", unknown tags to
  // "en"). Errors (kInvalidArgument for empty content, invalid UTF-8 or an
  // unsupported kind; kOutOfRange for content over kMaxContentBytes) come
  // back as a Status; this never throws.
  //
  // Kinds image and document take the file's raw bytes (at most
  // kMaxFileContentBytes): an image (PNG, JPEG, GIF, TIFF, BMP, WebP) is
  // read by OCR and every QR code in it is decoded; a PDF gives its text
  // layer (OCR for pages without one), a DOCX its text and link targets.
  // A document's text is read only up to kMaxDocumentTextBytes (options.h);
  // a longer one is cut there and the report is `truncated`.
  // report.extracted_text holds what was read: for an image the recognised
  // text followed by each QR payload on a line of its own. Signals then
  // have location "ocr", "qr" or "document", and their spans index
  // extracted_text. Errors besides the above: kInvalidArgument for a
  // damaged file or one of the wrong type, kOutOfRange for a file over the
  // Options limits on pixels, pages or inflated size (checked before the
  // work is done), kDeadlineExceeded past Options::decode_timeout_ms,
  // kUnavailable without OCR models (see ocr_status()). OCR of an image
  // takes about a second; it waits for a free engine of the bounded pool
  // (Options::ocr_engines).
  virtual Result<Report> analyze(std::string_view content, Kind kind = Kind::kText,
                                 std::string_view locale = "en") const = 0;

  // Decodes every QR code in `image` (raw bytes of an image file, as for
  // Kind::kImage; no OCR) and analyzes each payload on its own: a URL with
  // the full URL analysis, anything else as text. One Report per distinct
  // payload, in reading order (none if the image has no QR code); each has
  // kind image, extracted_text == the payload and signals at location "qr".
  // Errors as analyze() of kind image.
  virtual Result<std::vector<Report>> analyze_qr_codes(std::string_view image,
                                                       std::string_view locale = "en") const;

  // Whether images (and scanned PDF pages) can be read: OK, or kUnavailable
  // naming the missing OCR model. Text, email and url work either way.
  virtual Status ocr_status() const;

  // The AI provider's circuit breaker and the provider counters, e.g. for a
  // health check ("disabled" without a provider, "ok" while the breaker is
  // closed). Cheap; safe to call from any thread.
  virtual ProviderStats provider_stats() const;

  // As above, with the kind given by its wire name ("text", "url", ...).
  // An unknown name is kInvalidArgument.
  Result<Report> analyze(std::string_view content, std::string_view kind,
                         std::string_view locale) const;

  // The signal glossary of the loaded data pack, in the glossary file's
  // order: every key a Signal can carry. A copy, for documentation and for
  // adapters that publish it (the MCP glossary resource).
  std::vector<GlossarySignal> signal_glossary() const;

 protected:
  Analyzer() = default;
};

// The kind a file's magic bytes name: kImage for PNG, JPEG, GIF, TIFF, BMP
// and WebP, kDocument for PDF and zip (DOCX); nullopt for anything else
// (text, email and url carry no magic bytes). For callers that accept files
// without a declared kind, such as the CLI.
SCAMCHECK_EXPORT std::optional<Kind> sniff_kind(std::string_view content);

}  // namespace scamcheck

#endif  // SCAMCHECK_ANALYZER_H_
