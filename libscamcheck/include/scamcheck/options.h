// Options for Analyzer::create(). A plain aggregate: use designated
// initializers, e.g. scamcheck::Options{.data_dir = "/usr/share/scamcheck"}.
#ifndef SCAMCHECK_OPTIONS_H_
#define SCAMCHECK_OPTIONS_H_

#include <cstddef>
#include <memory>
#include <string>

namespace scamcheck {

class AiProvider;       // scamcheck/providers.h
class UrlReputation;    // scamcheck/providers.h
class ReputationStore;  // scamcheck/providers.h

// Largest content analyze() accepts for kinds text, email and url, in
// bytes (CONTRACT §1: 64 KiB).
inline constexpr std::size_t kMaxContentBytes = 65536;

// Largest content analyze() accepts for kinds image and document, in bytes
// (CONTRACT §1: 10 MiB of raw file bytes).
inline constexpr std::size_t kMaxFileContentBytes = std::size_t{10} << 20;

// Most bytes of a document's text that the checks read: what a reader sees
// first (64 KiB, as much as a text may have). A PDF's later pages are not
// read, a DOCX's XML only as far as its first 1 MiB; the text is cut at the
// last space or line break before the limit, the DOCX's link targets follow
// it, and the Report says so with `truncated`.
inline constexpr std::size_t kMaxDocumentTextBytes = 65536;

// Where Debian's tesseract-ocr-eng and tesseract-ocr-deu packages put their
// models; the default of Options::tessdata_dir.
inline constexpr char kDefaultTessdataDir[] = "/usr/share/tesseract-ocr/5/tessdata";

struct Options {
  // Directory holding the data pack (rules/, lists/, locales/, glossary.json,
  // scoring.json), laid out like libscamcheck/data. Empty ("", the default)
  // uses the pack compiled into the library, so it works with no files
  // installed. Files are read once, in create(), and validated there.
  std::string data_dir = "";

  // Whether the learned model takes part in scoring (default true). With
  // false, the score comes from the rule weights in scoring.json alone and
  // the model file is neither read nor required.
  bool use_model = true;

  // Path of a model weights file to use instead of the data pack's
  // model/model.bin ("" = the pack's, the default). Lets a caller compare
  // two trained models on the same data pack. Ignored if !use_model.
  std::string model_file = "";

  // Threads that compile the rules in create() (default 0 = one per
  // hardware thread, at most 4; 1 = the calling thread alone). With two
  // cores, create() takes ~0.14 s instead of ~0.22 s, and a long-lived
  // process keeps ~2 MB more resident afterwards (the helpers' malloc
  // arenas): a server that starts once may prefer 1.
  unsigned compile_threads = 0;

  // ---- Images and documents (kinds image and document) ----

  // Directory holding the Tesseract models (<lang>.traineddata) for
  // `ocr_languages` (default kDefaultTessdataDir, Debian's location). If
  // they are missing, create() still succeeds and text, email and url work;
  // analyzing an image, or a PDF page without a text layer, then fails with
  // StatusCode::kUnavailable.
  std::string tessdata_dir = kDefaultTessdataDir;

  // Tesseract languages, '+'-separated (default "eng+deu").
  std::string ocr_languages = "eng+deu";

  // Most OCR engines alive at once (default 0 = one per hardware thread).
  // Each engine is initialised once, on first need, and reused; an OCR call
  // waits for a free engine, so at most this many recognitions run at a
  // time. Each engine holds roughly 50-100 MB while it works; engines
  // unused for a minute are ended (their memory freed) and loaded again by
  // the next recognition.
  unsigned ocr_engines = 0;

  // Most pixels (width x height) of an image, or of a rendered PDF page,
  // that is decoded (default 40,000,000). Checked against the file's header
  // before any pixel is decoded, so a decompression bomb costs nothing.
  std::size_t max_image_pixels = 40'000'000;

  // Most pages a PDF may have (default 50); a longer one is kOutOfRange.
  int max_document_pages = 50;

  // Most pages of one PDF without a text layer that are rendered and
  // recognised (default 10); later ones are skipped.
  int max_ocr_pages = 10;

  // Most bytes of text-bearing XML inflated from one DOCX (default 20 MiB).
  // Checked against the zip directory first and enforced while inflating,
  // so a zip bomb is kOutOfRange after at most this much work.
  std::size_t max_decompressed_bytes = std::size_t{20} << 20;

  // Time budget for decoding and recognising one image or document, in
  // milliseconds (default 30,000). Exceeding it is kDeadlineExceeded.
  int decode_timeout_ms = 30'000;

  // ---- Providers (scamcheck/providers.h); all off by default ----

  // A second opinion on every report (default null: none, the report is the
  // heuristic one with model_used "heuristic-fallback"). Its verdict, score,
  // summary and actions replace the heuristic ones; of its signals only
  // those whose evidence occurs verbatim in the input are kept. Any failure
  // leaves that report heuristic.
  std::shared_ptr<AiProvider> ai_provider = nullptr;

  // Consecutive provider failures after which the provider is skipped
  // (default 5), and for how long, in milliseconds (default 30,000); then
  // one trial request decides whether it is asked again.
  int ai_breaker_failures = 5;
  int ai_breaker_open_ms = 30'000;

  // Where the reputation of each URL of a report comes from (default null:
  // every URL "unknown"). A malicious URL is a signal (known_malicious_url)
  // with the URL as its evidence, and weighs on the score.
  std::shared_ptr<UrlReputation> url_reputation = nullptr;

  // How long an answer of url_reputation is reused, in seconds (default
  // 86,400: 24 h, CONTRACT §2), and how many URLs the cache holds at most
  // (default 100,000; the oldest answers go first). Reused answers are
  // marked UrlInfo::cached.
  int reputation_cache_seconds = 86'400;
  std::size_t reputation_cache_entries = 100'000;

  // A second cache level under the memory cache of url_reputation's
  // answers, e.g. the server's database, so answers outlive the process
  // (default null: memory only).
  std::shared_ptr<ReputationStore> reputation_store = nullptr;

  // Lists the caller keeps itself, e.g. feed files it reloads: asked for
  // every URL of every report, before url_reputation and never cached, so a
  // changed list counts at once (default null). A URL that either source
  // calls malicious is malicious.
  std::shared_ptr<UrlReputation> local_reputation = nullptr;
};

}  // namespace scamcheck

#endif  // SCAMCHECK_OPTIONS_H_
