// Integration test of the real `scamcheck` program (CONTRACT §8): exit codes,
// JSON output, and the --jsonl batch mode. Runs the binary through /bin/sh
// with files for stdin, stdout and stderr; checks JSON with simdjson.
#include <doctest/doctest.h>
#include <simdjson.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "../support/test_http_server.h"

namespace {

namespace fs = std::filesystem;

// A scam text no reasonable rule set can call safe.
constexpr std::string_view kScam =
    "URGENT: your bank account has been suspended. Verify your password and enter the TAN "
    "code you receive at http://secure-bank-login.example.top/verify within 24 hours or your "
    "account will be closed.";
constexpr std::string_view kSafe = "Hi mum, I'll be home at 6. Can you buy milk on the way?";

std::string quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  out += "'";
  return out;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const fs::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
}

class Scratch {
 public:
  Scratch() {
    std::string tmpl = (fs::temp_directory_path() / "scamcheck-cli-test-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    dir_ = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path path(std::string_view name) const { return dir_ / name; }

 private:
  fs::path dir_;
};

struct Run {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `scamcheck <args>` with `input` on stdin.
Run run_cli(const std::string& args, std::string_view input = "") {
  Scratch scratch;
  write_file(scratch.path("in"), input);
  const std::string command =
      quote(SCAMCHECK_CLI_PATH) + " " + args + " < " + quote(scratch.path("in").string()) + " > " +
      quote(scratch.path("out").string()) + " 2> " + quote(scratch.path("err").string());
  const int status = std::system(command.c_str());
  Run run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = read_file(scratch.path("out"));
  run.err = read_file(scratch.path("err"));
  return run;
}

// Parses one JSON document (throws simdjson_error on bad JSON).
simdjson::dom::element parse(simdjson::dom::parser& parser, std::string_view json) {
  return parser.parse(json.data(), json.size());
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every signal's evidence is the exact input at its span (CONTRACT §1).
void check_spans(simdjson::dom::element report, std::string_view content) {
  for (simdjson::dom::element signal : report["signals"].get_array()) {
    const auto start = static_cast<std::size_t>(uint64_t(signal["span"]["start"]));
    const auto end = static_cast<std::size_t>(uint64_t(signal["span"]["end"]));
    REQUIRE(start < end);
    REQUIRE(end <= content.size());
    CHECK(content.substr(start, end - start) == std::string_view(signal["evidence"]));
  }
}

}  // namespace

TEST_CASE("a safe message exits 0 with one JSON report") {
  const Run run = run_cli("", kSafe);
  INFO(run.err);
  CHECK(run.exit_code == 0);
  simdjson::dom::parser parser;
  const auto report = parse(parser, run.out);
  CHECK(std::string_view(report["verdict"]) == "safe");
  CHECK(std::string_view(report["kind"]) == "text");
  CHECK(std::string_view(report["model_used"]) == "heuristic-fallback");
  CHECK(std::string_view(report["id"]).substr(0, 4) == "rpt_");
  CHECK(report["risk_text"].error() == simdjson::NO_SUCH_FIELD);
  CHECK(report["extracted_text"].error() == simdjson::NO_SUCH_FIELD);
}

TEST_CASE("a scam message exits 2 (danger), every signal with a verbatim span") {
  Scratch scratch;
  write_file(scratch.path("scam.txt"), kScam);
  const Run run = run_cli(quote(scratch.path("scam.txt").string()));
  INFO(run.err);
  INFO(run.out);
  CHECK(run.exit_code == 2);
  simdjson::dom::parser parser;
  const auto report = parse(parser, run.out);
  CHECK(std::string_view(report["verdict"]) == "danger");
  CHECK(report["signals"].get_array().size() > 0);
  check_spans(report, kScam);
}

TEST_CASE("--format text prints a readable summary, uncoloured when not a terminal") {
  const Run run = run_cli("--format text --locale de -", kScam);
  INFO(run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.out.find("DANGER") != std::string::npos);
  CHECK(run.out.find("signals") != std::string::npos);
  CHECK(run.out.find('\x1b') == std::string::npos);
}

TEST_CASE("usage errors exit 64") {
  CHECK(run_cli("--no-such-flag", kSafe).exit_code == 64);
  CHECK(run_cli("--kind fax", kSafe).exit_code == 64);
  CHECK(run_cli("--format xml", kSafe).exit_code == 64);
  CHECK(run_cli("--threads 0 --jsonl", "").exit_code == 64);
  CHECK(run_cli("--jsonl --format text", "").exit_code == 64);
  CHECK(run_cli("--data-dir /nonexistent/scamcheck", kSafe).exit_code == 64);
  CHECK(run_cli("--ai-url http://127.0.0.1:9/v1", kSafe).exit_code == 64);  // no --ai-model
  CHECK(run_cli("--safe-browsing-url http://127.0.0.1:9", kSafe).exit_code == 64);
}

TEST_CASE("--urlhaus-url: a listed URL is a signal quoting the URL") {
  // A stand-in of the URLhaus API (POST /v1/url/, url=...).
  scamcheck::testing::TestHttpServer urlhaus([](const scamcheck::testing::TestRequest& r) {
    const bool listed = r.body.find("listed-evil") != std::string::npos;
    return scamcheck::testing::TestResponse{
        200, listed ? R"({"query_status":"ok"})" : R"({"query_status":"no_results"})"};
  });
  const std::string text = "Your parcel waits: https://listed-evil.example.org/track";
  const Run run = run_cli("--urlhaus-url " + urlhaus.url() + " -", text);
  CHECK(run.exit_code == 2);
  simdjson::dom::parser parser;
  simdjson::dom::element report = parser.parse(run.out);
  bool found = false;
  for (simdjson::dom::element s : report["signals"].get_array()) {
    if (std::string_view(s["key"]) == "known_malicious_url") {
      found = true;
      CHECK(std::string_view(s["evidence"]) == "https://listed-evil.example.org/track");
    }
  }
  CHECK(found);
  CHECK(std::string_view(report["urls"].at(0)["reputation"]) == "malicious");
}

TEST_CASE("--help and --version exit 0") {
  const Run help = run_cli("--help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--jsonl") != std::string::npos);
  const Run version = run_cli("--version");
  CHECK(version.exit_code == 0);
  CHECK(version.out.find("scamcheck ") != std::string::npos);
}

TEST_CASE("bad input exits 65: invalid UTF-8, empty, too large") {
  CHECK(run_cli("", "caf\xC3 \xFF\xFE").exit_code == 65);
  Scratch scratch;
  write_file(scratch.path("empty.txt"), "");
  const Run empty = run_cli(quote(scratch.path("empty.txt").string()));
  CHECK(empty.exit_code == 65);
  CHECK(!empty.err.empty());
  CHECK(empty.out.empty());
  CHECK(run_cli("", std::string(70000, 'a')).exit_code == 65);
}

TEST_CASE("an input that cannot be opened exits 66") {
  Scratch scratch;
  const Run run = run_cli(quote(scratch.path("missing.txt").string()));
  CHECK(run.exit_code == 66);
  CHECK(run.err.find("missing.txt") != std::string::npos);
  CHECK(run_cli(quote(scratch.path("").string())).exit_code == 66);  // a directory
}

TEST_CASE("--jsonl answers every line in order and keeps going after bad lines") {
  std::string input;
  const auto add = [&input](std::initializer_list<std::string_view> pieces) {
    for (std::string_view piece : pieces) input.append(piece);
  };
  add({"{\"id\": 1, \"content\": \"", kScam, "\"}\n"});  // report
  add({"{\"id\": 2, \"content\": \n"});                  // bad JSON
  add({"\n   \n"});                                      // blank: skipped
  add({"{\"id\": \"b64\", \"content\": \"/w==\", \"content_encoding\": \"base64\"}\n"});  // 0xFF
  add({"{\"id\": {\"k\": [1, 2.50]}, \"content\": \"\"}\n"});                             // empty
  add({"{\"id\": \"fax\", \"kind\": \"fax\", \"content\": \"hello\"}\n"});  // unknown kind
  add({"{\"id\": \"nob64\", \"content\": \"%%%\", \"content_encoding\": \"base64\"}\n"});
  add({"{\"id\": \"de\", \"locale\": \"de\", \"content\": \"", kSafe, "\"}\r\n"});
  add({"{\"id\": -0, \"content\": \"hello\"}\n"});  // an integer id, as written
  add({"{\"id\": 18446744073709551615, \"content\": \"hello\"}\n"});
  add({"{\"id\": 7, \"kind\": \"text\", \"content\": \"SGVsbG8sIHdvcmxk\", ",
       "\"content_encoding\": \"base64\"}"});  // no final newline
  const Run run = run_cli("--jsonl --threads 2", input);
  INFO(run.err);
  CHECK(run.exit_code == 0);
  const std::vector<std::string> lines = split_lines(run.out);
  REQUIRE(lines.size() == 10);

  simdjson::dom::parser parser;
  // `raw_id` is the id exactly as written in the input: copied, not re-serialized.
  const auto expect = [&](std::size_t i, std::string_view raw_id, bool report) {
    INFO("line " << i << ": " << lines[i]);
    const auto doc = parse(parser, lines[i]);
    CHECK(lines[i].rfind(std::string("{\"id\":").append(raw_id).append(","), 0) == 0);
    CHECK((doc["report"].error() == simdjson::SUCCESS) == report);
    CHECK((doc["error"].error() == simdjson::SUCCESS) == !report);
    if (!report) CHECK(std::string_view(doc["error"]["message"]).size() > 0);
  };
  expect(0, "1", true);
  expect(1, "null", false);
  expect(2, "\"b64\"", false);
  expect(3, "{\"k\": [1, 2.50]}", false);
  expect(4, "\"fax\"", false);
  expect(5, "\"nob64\"", false);
  expect(6, "\"de\"", true);
  expect(7, "-0", true);
  expect(8, "18446744073709551615", true);
  expect(9, "7", true);
  const auto first = parse(parser, lines[0]);
  check_spans(first["report"], kScam);
  CHECK(std::string_view(parse(parser, lines[6])["report"]["locale"]) == "de");
}

TEST_CASE("--jsonl keeps input order across many chunks and threads") {
  std::string input;
  constexpr int kLines = 5000;
  for (int i = 0; i < kLines; ++i) {
    input.append("{\"id\": ").append(std::to_string(i)).append(", \"content\": \"");
    input.append(i % 3 == 0 ? kScam : kSafe).append("\"}\n");
  }
  const Run run = run_cli("--jsonl --threads 3", input);
  CHECK(run.exit_code == 0);
  const std::vector<std::string> lines = split_lines(run.out);
  REQUIRE(lines.size() == kLines);
  simdjson::dom::parser parser;
  for (int i = 0; i < kLines; ++i) {
    const auto doc = parse(parser, lines[i]);
    REQUIRE(int64_t(doc["id"]) == i);
    REQUIRE(doc["report"].error() == simdjson::SUCCESS);
  }
  CHECK(run_cli("--jsonl", "").exit_code == 0);  // no input: no output, success
}

TEST_CASE("the JSON is bounded (CONTRACT §10): truncated and occurrences are written") {
  std::string many;
  char host[16];
  for (int i = 0; i < 4000; ++i) {
    std::snprintf(host, sizeof host, "h%x", i);
    many += "http://" + std::string(host) + ".top\n";
  }
  Run run = run_cli("--kind text", many);
  INFO(run.err);
  CHECK(run.out.size() <= 65536 + 1);  // and a newline
  simdjson::dom::parser parser;
  auto report = parse(parser, run.out);
  CHECK(bool(report["truncated"]));
  CHECK(report["signals"].get_array().size() <= 64);
  CHECK(report["urls"].get_array().size() == 100);

  std::string repeated;
  for (int i = 0; i < 40; ++i) repeated += std::string(kScam) + "\n";
  run = run_cli("--kind text", repeated);
  report = parse(parser, run.out);
  CHECK(report["truncated"].error() == simdjson::NO_SUCH_FIELD);
  uint64_t most = 0;
  for (simdjson::dom::element signal : report["signals"].get_array()) {
    uint64_t n = 1;
    if (signal["occurrences"].error() == simdjson::SUCCESS) {
      n = uint64_t(signal["occurrences"]);
      CHECK(n > 1);
    }
    most = std::max(most, n);
  }
  CHECK(most >= 40);
  check_spans(report, repeated);
}
