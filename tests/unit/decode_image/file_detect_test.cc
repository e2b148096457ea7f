// decode/file_detect: which QR payloads get the URL analysis; one entry per
// URL however often a file repeats it.
#include "decode/file_detect.h"

#include <doctest/doctest.h>

using namespace scamcheck;
using namespace scamcheck::internal;

TEST_CASE("a QR payload is a URL when it is one link and nothing else") {
  CHECK(is_url_payload("https://example.org/pay"));
  CHECK(is_url_payload("  example.org/pay\n"));
  CHECK_FALSE(is_url_payload("pay at https://example.org/pay"));
  CHECK_FALSE(is_url_payload("WIFI:S:home;T:WPA;P:secret;;"));
  CHECK_FALSE(is_url_payload("   "));
}

TEST_CASE("keep_first_of_each_url keeps the order of first appearance") {
  std::vector<UrlInfo> urls(4);
  urls[0].url = "http://a.example/";
  urls[1].url = "http://b.example/";
  urls[2].url = "http://a.example/";
  urls[3].url = "http://c.example/";
  keep_first_of_each_url(urls);
  REQUIRE(urls.size() == 3);
  CHECK(urls[0].url == "http://a.example/");
  CHECK(urls[1].url == "http://b.example/");
  CHECK(urls[2].url == "http://c.example/");
}
