// scamcheck-native-host: the browser native messaging host (CONTRACT §8).
// A browser extension (examples/browser-extension) sends it messages and
// links to check; it embeds the library, so nothing leaves the machine.
//
//   scamcheck-native-host [--data-dir DIR]       (started by the browser)
//   scamcheck-native-host --install-manifest [--browser B] [--extension-id ID]
//                         [--manifest-dir DIR]
//
// Standard input carries request frames, standard output the replies (and
// nothing else), standard error the logs. It serves requests one after the
// other until standard input ends (exit 0); a stream it cannot read on (a
// length over 64 MiB, input ending inside a frame) gets an error reply and
// exit status 65.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "common/status_map.h"
#include "framing.h"
#include "host.h"
#include "manifest.h"
#include "scamcheck/scamcheck.h"

namespace scamcheck::native_host {
namespace {

// EX_IOERR: the replies cannot be written (the browser closed the pipe).
constexpr int kExitIoError = 74;

constexpr char kFooter[] =
    R"(Protocol (native messaging; 32-bit native-endian length, then UTF-8 JSON):
  request  {"id": 1, "content": "...", "kind": "text", "locale": "en"}
           (kind text|email|url|image|document; "content_encoding": "base64" for file bytes)
  reply    {"id": 1, "report": {...}}  or  {"id": 1, "error": {"code": "invalid_argument", "message": "..."}}
Replies stay under 1 MB: a bigger report is trimmed and marked "truncated": true.

Set up a browser (then load examples/browser-extension as an unpacked extension):
  scamcheck-native-host --install-manifest                      # Chromium, the example extension
  scamcheck-native-host --install-manifest --browser chrome --extension-id ID
  scamcheck-native-host --install-manifest --browser firefox

Exit status: 0 input ended, 64 usage error, 65 broken input stream, 70 internal error,
74 replies cannot be written.
)";

// The path the browser is to start: this program, resolved.
std::string own_path(const char* argv0) {
  std::error_code error;
  std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) path = std::filesystem::weakly_canonical(std::filesystem::absolute(argv0), error);
  return path.string();
}

int install_manifest(const char* argv0, const std::string& browser_name, std::string extension_id,
                     const std::string& manifest_dir) {
  const std::optional<Browser> browser = parse_browser(browser_name);
  if (!browser) {
    std::fprintf(stderr, "scamcheck-native-host: --browser is chromium, chrome or firefox\n");
    return adapters::kExitUsage;
  }
  if (extension_id.empty()) {
    extension_id = *browser == Browser::kFirefox ? SCAMCHECK_EXTENSION_ID_FIREFOX
                                                 : SCAMCHECK_EXTENSION_ID_CHROMIUM;
  }
  if (Status s = check_extension_id(*browser, extension_id); !s.ok()) {
    std::fprintf(stderr, "scamcheck-native-host: --extension-id: %s\n", s.message().c_str());
    return adapters::kExitUsage;
  }
  std::filesystem::path dir = manifest_dir;
  if (dir.empty()) {
    auto user_dir = user_manifest_dir(*browser);
    if (!user_dir.ok()) {
      std::fprintf(stderr, "scamcheck-native-host: %s\n", user_dir.status().message().c_str());
      return adapters::kExitUsage;
    }
    dir = *user_dir;
  }
  auto file = write_manifest(dir, *browser, own_path(argv0), extension_id);
  if (!file.ok()) {
    std::fprintf(stderr, "scamcheck-native-host: %s\n", file.status().message().c_str());
    return adapters::kExitNoInput;
  }
  std::printf("%s\n", file->c_str());
  return 0;
}

int serve(const Analyzer& analyzer) {
  RequestHandler handler(analyzer);
  FrameReader reader(STDIN_FILENO);
  std::string frame;
  for (;;) {
    Status problem;
    switch (reader.next(&frame, &problem)) {
      case FrameReader::Outcome::kEnd:
        return 0;
      case FrameReader::Outcome::kBroken:
        std::fprintf(stderr, "scamcheck-native-host: %s\n", problem.to_string().c_str());
        // Best effort: the reader may still be there to learn why we stop.
        (void)write_frame(STDOUT_FILENO, error_reply("null", problem.code(), problem.message()));
        return adapters::kExitDataError;
      case FrameReader::Outcome::kFrame:
        break;
    }
    if (!write_frame(STDOUT_FILENO, handler.handle(frame))) {
      std::fprintf(stderr, "scamcheck-native-host: cannot write the reply; stopping\n");
      return kExitIoError;
    }
  }
}

int run(int argc, char** argv) {
  CLI::App app(
      "scamcheck-native-host: the ScamCheck native messaging host. A browser extension starts "
      "it and sends it messages and links to check for scams; it answers with the report, "
      "offline (nothing leaves the machine).",
      "scamcheck-native-host");
  app.footer(kFooter);
  app.set_version_flag("--version",
                       std::string("scamcheck-native-host ") + SCAMCHECK_VERSION_STRING);
  std::string data_dir;
  app.add_option("--data-dir", data_dir,
                 "Load the data pack (rules, lists, locales) from DIR instead of the copy built "
                 "into the program")
      ->type_name("DIR")
      ->check(CLI::Validator(CLI::ExistingDirectory).description(""));
  bool install = false;
  std::string browser = "chromium";
  std::string extension_id;
  std::string manifest_dir;
  app.add_flag("--install-manifest", install,
               "Write the host manifest for the browser and exit (prints its path)");
  app.add_option("--browser", browser,
                 "With --install-manifest: chromium (default), chrome or firefox")
      ->type_name("B");
  app.add_option("--extension-id", extension_id,
                 std::string("With --install-manifest: the extension allowed to start the host "
                             "(default the example extension: ") +
                     SCAMCHECK_EXTENSION_ID_CHROMIUM + ", Firefox " +
                     SCAMCHECK_EXTENSION_ID_FIREFOX + ")")
      ->type_name("ID");
  app.add_option("--manifest-dir", manifest_dir,
                 "With --install-manifest: write into DIR instead of the browser's directory in "
                 "your profile")
      ->type_name("DIR");
  // What the browsers pass when they start a host: Chromium the caller's
  // origin (and --parent-window on Windows), Firefox the manifest's path and
  // the add-on id. Accepted and not needed.
  std::vector<std::string> browser_args;
  app.add_option("browser-args", browser_args, "Arguments the browser passes (ignored)")
      ->type_name("ARG");
  std::string parent_window;
  app.add_option("--parent-window", parent_window)->group("");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version, or the error
    return code == 0 ? 0 : adapters::kExitUsage;
  }
  if (install) return install_manifest(argv[0], browser, extension_id, manifest_dir);

  // A browser that goes away must not kill us mid-write; the write fails instead.
  ::signal(SIGPIPE, SIG_IGN);
  auto analyzer = Analyzer::create(Options{.data_dir = data_dir});
  if (!analyzer.ok()) {
    std::fprintf(stderr, "scamcheck-native-host: cannot load the data pack: %s\n",
                 analyzer.status().to_string().c_str());
    return adapters::kExitSoftware;
  }
  if (isatty(STDIN_FILENO)) {
    std::fprintf(stderr,
                 "scamcheck-native-host: a browser native messaging host; the browser starts "
                 "it and writes length-prefixed JSON messages. See --help. Ctrl-D ends it.\n");
  }
  return serve(**analyzer);
}

}  // namespace
}  // namespace scamcheck::native_host

int main(int argc, char** argv) {
  try {
    return scamcheck::native_host::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scamcheck-native-host: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "scamcheck-native-host: internal error\n");
  }
  return scamcheck::adapters::kExitSoftware;
}
