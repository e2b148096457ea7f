// scamcheck: the command-line scanner (CONTRACT §8).
//
//   scamcheck [--kind K] [--locale L] [--format json|text] [FILE|-]
//   scamcheck --jsonl [--threads N] [FILE|-]
//
// Without --kind, an input whose first bytes name an image (PNG, JPEG, GIF,
// TIFF, BMP, WebP) or a document (PDF, DOCX) is scanned as one; anything
// else as text.
//
// Exit codes follow sysexits.h so shell scripts and mail filters can
// branch: 0 safe, 1 suspicious, 2 danger, 64 usage, 65 bad input, 66 cannot
// open the input, 69 feature not in this build, 70 internal error, 74 I/O
// error while writing.
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <thread>

#include "common/provider_flags.h"
#include "common/report_json.h"
#include "common/status_map.h"
#include "jsonl_batch.h"
#include "scamcheck/scamcheck.h"
#include "text_report.h"

namespace scamcheck::cli {
namespace {

constexpr int kExitIoError = 74;  // EX_IOERR
// Most bytes read from the input: the largest content the library accepts
// (10 MiB for images and documents) plus one, so that a larger input still
// reaches the library and fails with its own size error.
constexpr std::size_t kMaxReadBytes = (10u << 20) + 1;

constexpr char kFooter[] = R"(Exit status:
  0 safe, 1 suspicious, 2 danger (the verdict of the report);
  64 usage error, 65 bad input (invalid UTF-8, empty, too large),
  66 cannot open the input, 69 not supported by this build,
  70 internal error, 74 cannot write the output.

Batch mode (--jsonl) reads one JSON object per line,
  {"id": any, "content": "...", "kind": "text", "locale": "en",
   "content_encoding": "utf-8"|"base64"}
and writes one line per input line, in order:
  {"id": ..., "report": {...}}  or  {"id": ..., "error": {"message": "..."}}
It exits 0 once all input was read.

Examples:
  echo 'Your parcel is on hold: https://dhl-track.example.top' | scamcheck --format text
  scamcheck --kind email message.eml; echo $?
  scamcheck screenshot.png            # images and documents are recognised by their bytes
  scamcheck --jsonl --threads 8 < messages.jsonl > reports.jsonl
)";

// Reads up to `limit` bytes of `file` into *out. Returns 0 or an errno. A
// regular file (a 10 MiB document) is read straight into one allocation of
// its size.
int read_bytes(std::FILE* file, std::size_t limit, std::string* out) {
  struct stat st {};
  if (fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    // One byte more, to see the end of the file without growing.
    out->reserve(std::min(static_cast<std::size_t>(st.st_size), limit) + 1);
  }
  constexpr std::size_t kStep = std::size_t{1} << 16;
  while (out->size() < limit) {
    const std::size_t have = out->size();
    const std::size_t room = out->capacity() > have ? out->capacity() - have : kStep;
    const std::size_t want = std::min(room, limit - have);
    out->resize(have + want);
    const std::size_t got = std::fread(out->data() + have, 1, want, file);
    out->resize(have + got);
    if (got < want) return std::ferror(file) ? (errno ? errno : EIO) : 0;
  }
  return 0;
}

bool color_wanted(int fd) {
  const char* no_color = std::getenv("NO_COLOR");  // https://no-color.org
  return isatty(fd) && (no_color == nullptr || no_color[0] == '\0');
}

int write_all(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "scamcheck: cannot write output: %s\n", std::strerror(errno));
    return kExitIoError;
  }
  return 0;
}

struct Flags {
  std::string kind = "text";
  bool kind_given = false;  // --kind on the command line; else sniffed for files
  std::string locale = "en";
  std::string format = "json";
  std::string file = "-";
  std::string data_dir;
  bool jsonl = false;
  unsigned threads = 0;
  adapters::ProviderFlags providers;
};

// Opens the input named on the command line ("-" is standard input).
// Returns nullptr after printing why.
std::FILE* open_input(const std::string& name) {
  if (name == "-") return stdin;
  std::FILE* file = std::fopen(name.c_str(), "rb");
  if (file == nullptr) {
    std::fprintf(stderr, "scamcheck: cannot open %s: %s\n", name.c_str(), std::strerror(errno));
  }
  return file;
}

int scan_one(const Analyzer& analyzer, const Flags& flags, Kind kind) {
  std::FILE* file = open_input(flags.file);
  if (file == nullptr) return adapters::kExitNoInput;
  if (file == stdin && isatty(STDIN_FILENO)) {
    std::fprintf(stderr, "scamcheck: reading the message from the terminal; end it with Ctrl-D\n");
  }
  std::string content;
  const int error = read_bytes(file, kMaxReadBytes, &content);
  if (file != stdin) std::fclose(file);
  if (error != 0) {
    std::fprintf(stderr, "scamcheck: cannot read %s: %s\n",
                 flags.file == "-" ? "standard input" : flags.file.c_str(), std::strerror(error));
    return adapters::kExitNoInput;
  }

  if (!flags.kind_given) {
    if (const std::optional<Kind> sniffed = sniff_kind(content)) kind = *sniffed;
  }
  const Result<Report> report = analyzer.analyze(content, kind, flags.locale);
  if (!report.ok()) {
    std::fprintf(stderr, "scamcheck: %s\n", report.status().to_string().c_str());
    return adapters::exit_code_for(report.status().code());
  }

  std::string out;
  if (flags.format == "text") {
    out = render_text_report(*report, color_wanted(STDOUT_FILENO));
  } else {
    // Indented for a person at a terminal, one line for programs.
    out = isatty(STDOUT_FILENO) ? adapters::report_to_pretty_json(*report)
                                : adapters::report_to_json(*report);
    out.push_back('\n');
  }
  if (const int code = write_all(out)) return code;
  return adapters::exit_code_for(report->verdict);
}

int scan_jsonl(const Analyzer& analyzer, const Flags& flags, Kind kind) {
  std::FILE* file = open_input(flags.file);
  if (file == nullptr) return adapters::kExitNoInput;
  JsonlOptions options;
  options.threads = flags.threads ? flags.threads : std::thread::hardware_concurrency();
  if (options.threads == 0) options.threads = 1;
  options.default_kind = kind;
  options.default_locale = flags.locale;
  options.progress = isatty(STDERR_FILENO);
  const int code = run_jsonl(analyzer, file, stdout, options);
  if (file != stdin) std::fclose(file);
  return code;
}

int run(int argc, char** argv) {
  CLI::App app(
      "scamcheck: tells whether a message, link or email is a scam, and quotes the exact "
      "words, links and headers that made it think so. Prints one report (JSON by default).",
      "scamcheck");
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("scamcheck ") + SCAMCHECK_VERSION_STRING);

  Flags flags;
  app.add_option("--kind,-k", flags.kind,
                 "What the input is: text (SMS, chat; default), email (raw RFC 822), url, "
                 "image (PNG, JPEG, GIF, TIFF, BMP, WebP), document (PDF, DOCX). Without it, "
                 "images and documents are recognised by their first bytes")
      ->type_name("K");
  app.add_option("--locale,-l", flags.locale,
                 "Language of the explanations, a BCP 47 tag: en, de, fr, es, it, nl or pt "
                 "(pt-BR falls back to pt, unknown tags to en; default en)")
      ->type_name("L");
  app.add_option("--format,-f", flags.format,
                 "json (default; indented when stdout is a terminal) or text (a readable "
                 "summary, coloured on a terminal unless NO_COLOR is set)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"json", "text"}));
  app.add_option("--data-dir", flags.data_dir,
                 "Load the data pack (rules, lists, locales) from DIR instead of the copy "
                 "built into the program")
      ->type_name("DIR")
      ->check(CLI::Validator(CLI::ExistingDirectory).description(""));
  app.add_flag("--jsonl", flags.jsonl,
               "Batch mode: read JSON Lines, write one result line per input line");
  app.add_option("--threads,-j", flags.threads, "Worker threads for --jsonl (default: every core)")
      ->type_name("N")
      ->check(CLI::Range(1u, 4096u));
  adapters::add_provider_flags(app, flags.providers);
  app.add_option("file", flags.file, "The input to scan; - or nothing reads standard input")
      ->type_name("FILE|-");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version, or the error
    return code == 0 ? 0 : adapters::kExitUsage;
  }

  flags.kind_given = app.count("--kind") > 0;
  const std::optional<Kind> kind = parse_kind(flags.kind);
  if (!kind) {
    std::fprintf(stderr,
                 "scamcheck: unknown --kind \"%s\" (expected text, email, url, image or "
                 "document)\nRun with --help for more information.\n",
                 flags.kind.c_str());
    return adapters::kExitUsage;
  }
  if (flags.jsonl && flags.format != "json") {
    std::fprintf(stderr, "scamcheck: --jsonl always writes JSON; --format %s is not available\n",
                 flags.format.c_str());
    return adapters::kExitUsage;
  }

  Options options{.data_dir = flags.data_dir};
  if (Status s = adapters::configure_providers(flags.providers, options); !s.ok()) {
    std::fprintf(stderr, "scamcheck: %s\n", s.message().c_str());
    return adapters::kExitUsage;
  }
  auto analyzer = Analyzer::create(options);
  if (!analyzer.ok()) {
    std::fprintf(stderr, "scamcheck: cannot load the data pack: %s\n",
                 analyzer.status().to_string().c_str());
    return adapters::kExitSoftware;  // --data-dir exists (checked above): a broken pack
  }
  return flags.jsonl ? scan_jsonl(**analyzer, flags, *kind) : scan_one(**analyzer, flags, *kind);
}

}  // namespace
}  // namespace scamcheck::cli

int main(int argc, char** argv) {
  try {
    return scamcheck::cli::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scamcheck: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "scamcheck: internal error\n");
  }
  return scamcheck::adapters::kExitSoftware;
}
