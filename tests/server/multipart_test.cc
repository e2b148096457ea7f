// Unit tests of multipart.h (multipart/form-data with GMime) and of the
// file scan pool's bounded queue (file_scans.h).
#include "http/multipart.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>

#include "api/file_scans.h"

namespace scamcheck::server {
namespace {

constexpr char kType[] = "multipart/form-data; boundary=XyZ";

std::string field(const std::string& name, const std::string& value,
                  const std::string& extra_headers = "") {
  std::string out = "--XyZ\r\nContent-Disposition: form-data; name=\"";
  out.append(name).append("\"\r\n").append(extra_headers).append("\r\n");
  out.append(value).append("\r\n");
  return out;
}

TEST_CASE("form fields keep their exact bytes, binary included") {
  std::string binary = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(1, '\0') + "--XyZ-not" +
                       "\r\n\r\n" + std::string(3000, '\xff') + "\r";
  const std::string body =
      std::string("preamble is ignored\r\n") +
      "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"shot.png\"\r\n"
      "Content-Type: image/png\r\n\r\n" +
      binary + "\r\n" + field("kind", "image") + field("locale", "de-AT") + "--XyZ--\r\n";
  Result<FormData> form = parse_form_data(kType, body);
  REQUIRE(form.ok());
  const FormPart* file = form->find("file");
  REQUIRE(file != nullptr);
  CHECK(file->body == binary);
  CHECK(file->filename == "shot.png");
  CHECK(file->content_type == "image/png");
  REQUIRE(form->find("kind") != nullptr);
  CHECK(form->find("kind")->body == "image");
  CHECK(form->find("locale")->body == "de-AT");
  CHECK(form->find("source_app") == nullptr);
}

TEST_CASE("LF line ends, a quoted boundary and a base64 field are read") {
  const std::string body =
      "--a b\nContent-Disposition: form-data; name=\"file\"\n"
      "Content-Transfer-Encoding: base64\n\naGVsbG8=\n--a b--\n";
  Result<FormData> form = parse_form_data("multipart/form-data; boundary=\"a b\"", body);
  REQUIRE(form.ok());
  REQUIRE(form->find("file") != nullptr);
  CHECK(form->find("file")->body == "hello");
}

TEST_CASE("the first field of a name wins; unnamed parts are skipped") {
  const std::string body = "--XyZ\r\nContent-Type: text/plain\r\n\r\nno name\r\n" +
                           field("kind", "document") + field("kind", "image") + "--XyZ--\r\n";
  Result<FormData> form = parse_form_data(kType, body);
  REQUIRE(form.ok());
  CHECK(form->parts.size() == 2);
  CHECK(form->find("kind")->body == "document");
}

TEST_CASE("malformed forms are refused") {
  const std::string good = field("file", "x") + "--XyZ--\r\n";
  CHECK(parse_form_data(kType, good).ok());
  CHECK_FALSE(parse_form_data("multipart/form-data", good).ok());              // no boundary
  CHECK_FALSE(parse_form_data("multipart/form-data; boundary=", good).ok());   // empty boundary
  CHECK_FALSE(parse_form_data("multipart/form-data; boundary=Q", good).ok());  // another one
  CHECK_FALSE(parse_form_data(kType, "").ok());
  CHECK_FALSE(parse_form_data(kType, "just some text").ok());
  CHECK_FALSE(parse_form_data(kType, field("file", "x")).ok());  // no closing delimiter
  CHECK_FALSE(parse_form_data("multipart/form-data; boundary=XyZ\r\nX: y", good).ok());
  std::string many;
  for (std::size_t i = 0; i <= kMaxFormParts; ++i) many += field(std::to_string(i), "v");
  CHECK_FALSE(parse_form_data(kType, many + "--XyZ--\r\n").ok());
}

TEST_CASE("deeply nested multiparts are bounded") {
  std::string body = field("file", "x");
  std::string nested;
  for (int i = 0; i < 3000; ++i) {
    nested += "--b" + std::to_string(i) + "\r\nContent-Type: multipart/mixed; boundary=b" +
              std::to_string(i + 1) + "\r\n\r\n";
  }
  body +=
      "--XyZ\r\nContent-Disposition: form-data; name=\"deep\"\r\n"
      "Content-Type: multipart/mixed; boundary=b0\r\n\r\n" +
      nested + "\r\n--XyZ--\r\n";
  const auto start = std::chrono::steady_clock::now();
  Result<FormData> form = parse_form_data(kType, body);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  if (form.ok()) CHECK(form->find("file")->body == "x");

  // Nesting followed by many delimiter-like lines: refused before parsing.
  std::string lines;
  for (int i = 0; i < 50000; ++i) lines += "--\r\n";
  CHECK_FALSE(parse_form_data(kType, body + lines).ok());
}

TEST_CASE("the file scan pool runs jobs and refuses more than its queue holds") {
  FileScanPool pool(1, 2);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::promise<void> started;
  std::atomic<int> ran{0};
  REQUIRE(pool.try_post([&] {
    started.set_value();
    gate.wait();
    ++ran;
  }));
  started.get_future().wait();  // the worker is busy; the queue is empty
  CHECK(pool.try_post([&] { ++ran; }));
  CHECK(pool.try_post([&] { ++ran; }));
  CHECK_FALSE(pool.try_post([&] { ++ran; }));  // two wait already
  release.set_value();
  pool.join();
  CHECK(ran == 3);
  CHECK_FALSE(pool.try_post([&] { ++ran; }));  // joined
}

}  // namespace
}  // namespace scamcheck::server
