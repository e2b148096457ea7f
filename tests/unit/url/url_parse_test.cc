// URL splitting, host normalization (IPv4 forms, IDN), refanging and the
// Public Suffix List helpers.
#include "url/url_parse.h"

#include <doctest/doctest.h>
#include <libpsl.h>

#include <string>

#include "url/public_suffix.h"
#include "url/refang.h"
#include "url/url_input.h"

using namespace scamcheck::internal;

namespace {
std::string part(const std::string& url, Range r) { return url.substr(r.start, r.size()); }
}  // namespace

TEST_CASE("split a full URL") {
  std::string u = "https://user:pw@Sub.Example.COM:8443/a/b?x=1&y=2#frag";
  ParsedUrl p;
  REQUIRE(parse_url(u, p));
  CHECK(p.curl_ok);
  CHECK(p.scheme == "https");
  CHECK(part(u, p.userinfo) == "user:pw");
  CHECK(p.at_signs == 1);
  CHECK(part(u, p.host_range) == "Sub.Example.COM");
  CHECK(p.host == "sub.example.com");
  CHECK(part(u, p.port) == "8443");
  CHECK(p.port_number == 8443);
  CHECK(part(u, p.path) == "/a/b");
  CHECK(part(u, p.query) == "x=1&y=2");
  CHECK(part(u, p.fragment) == "frag");
  CHECK(p.host_kind == HostKind::kName);
}

TEST_CASE("userinfo ends at the last @ (as browsers read it)") {
  std::string u = "http://a@b@evil.example/x";
  ParsedUrl p;
  REQUIRE(parse_url(u, p));
  CHECK_FALSE(p.curl_ok);  // curl refuses it; we still split it
  CHECK(p.at_signs == 2);
  CHECK(part(u, p.userinfo) == "a@b");
  CHECK(p.host == "evil.example");
}

TEST_CASE("IPv4 in all its disguises") {
  std::string dotted;
  bool canonical = false;
  CHECK(parse_ipv4("192.168.1.1", dotted, canonical));
  CHECK(dotted == "192.168.1.1");
  CHECK(canonical);
  CHECK(parse_ipv4("3232235777", dotted, canonical));
  CHECK(dotted == "192.168.1.1");
  CHECK_FALSE(canonical);
  CHECK(parse_ipv4("0xC0.0xA8.1.1", dotted, canonical));
  CHECK(dotted == "192.168.1.1");
  CHECK(parse_ipv4("0300.0250.1.1", dotted, canonical));
  CHECK(dotted == "192.168.1.1");
  CHECK(parse_ipv4("0x7f.1", dotted, canonical));
  CHECK(dotted == "127.0.0.1");
  CHECK_FALSE(parse_ipv4("256.1.1.1", dotted, canonical));
  CHECK_FALSE(parse_ipv4("1.2.3.4.5", dotted, canonical));
  CHECK_FALSE(parse_ipv4("example.com", dotted, canonical));
  CHECK_FALSE(parse_ipv4("1.2.3.x", dotted, canonical));

  ParsedUrl p;
  REQUIRE(parse_url("http://0x7f.0.0.1/x", p));
  CHECK(p.host_kind == HostKind::kIpv4);
  CHECK(p.host == "127.0.0.1");
  CHECK(p.ipv4_noncanonical);
  REQUIRE(parse_url("http://[2001:db8::1]:8080/", p));
  CHECK(p.host_kind == HostKind::kIpv6);
  CHECK(p.port_number == 8080);
}

TEST_CASE("percent-encoded hosts are decoded and noted") {
  ParsedUrl p;
  REQUIRE(parse_url("http://%70aypal.com/", p));
  CHECK(p.host == "paypal.com");
  CHECK(p.host_percent_encoded);
}

TEST_CASE("IDN hosts become punycode, punycode is decoded") {
  ParsedUrl p;
  REQUIRE(parse_url("https://münchen.de/", p));
  CHECK(p.host == "xn--mnchen-3ya.de");
  CHECK(p.host_unicode == "münchen.de");
  CHECK(p.host_written_unicode);
  CHECK_FALSE(p.host_has_xn_label);
  REQUIRE(parse_url("https://xn--pypal-4ve.com/", p));
  CHECK(p.host == "xn--pypal-4ve.com");
  CHECK(p.host_unicode == "pаypal.com");  // Cyrillic а
  CHECK(p.host_has_xn_label);
  // Upper case and a trailing dot are normalized.
  REQUIRE(parse_url("https://WWW.PayPal.COM./x", p));
  CHECK(p.host == "www.paypal.com");
}

TEST_CASE("scripts and other schemes have no host") {
  ParsedUrl p;
  REQUIRE(parse_url("javascript:alert(1)", p));
  CHECK(p.scheme == "javascript");
  CHECK_FALSE(p.has_authority);
  CHECK(p.host.empty());
  CHECK_FALSE(parse_url("no scheme here", p));
}

TEST_CASE("refang keeps a byte map back to the written text") {
  Refanged r = refang("hxxps://evil[.]example(dot)com/x");
  CHECK(r.defanged);
  CHECK(r.url == "https://evil.example.com/x");
  CHECK(r.marker_start == 0);
  CHECK(r.marker_end == 5);  // "hxxps"
  // "example" in the URL maps to "example" in the written text.
  std::size_t at = r.url.find("example");
  auto [s, e] = r.to_written(at, at + 7);
  CHECK(std::string("hxxps://evil[.]example(dot)com/x").substr(s, e - s) == "example");
  // The '.' that replaced "[.]" maps to the whole marker.
  std::size_t dot = r.url.find('.');
  auto [ds, de] = r.to_written(dot, dot + 1);
  CHECK(std::string("hxxps://evil[.]example(dot)com/x").substr(ds, de - ds) == "[.]");
  Refanged plain = refang("https://example.com");
  CHECK_FALSE(plain.defanged);
  CHECK(plain.url == "https://example.com");
}

TEST_CASE("link_for_url_input: kind url content") {
  LinkMatch m = link_for_url_input("  paypal.com/login \n");
  CHECK(m.start == 2);
  CHECK(m.end == 18);
  CHECK(m.url == "http://paypal.com/login");
  CHECK_FALSE(m.had_scheme);
  m = link_for_url_input("example.com:8080/x");
  CHECK(m.url == "http://example.com:8080/x");
  m = link_for_url_input("hxxps://evil[.]com");
  CHECK(m.defanged);
  CHECK(m.url == "https://evil.com");
  m = link_for_url_input("javascript:alert(1)");
  CHECK(m.url == "javascript:alert(1)");
  m = link_for_url_input("   ");
  CHECK(m.start == m.end);
}

TEST_CASE("public suffix list helpers") {
  CHECK(is_known_tld("com"));
  CHECK(is_known_tld("de"));
  CHECK(is_known_tld("shop"));
  CHECK(is_known_tld("xn--tckwe"));
  CHECK_FALSE(is_known_tld("txt"));
  CHECK_FALSE(is_known_tld("g"));
  CHECK_FALSE(is_known_tld("smith"));
  CHECK_FALSE(is_known_tld(""));
  CHECK(registrable_domain("www.paypal.com") == "paypal.com");
  CHECK(registrable_domain("a.b.amazon.co.jp") == "amazon.co.jp");
  CHECK(registrable_domain("x.web.app") == "x.web.app");  // private section counts
  CHECK(registrable_domain("com").empty());
  CHECK(icann_suffix("a.b.example.co.uk") == "co.uk");
  CHECK(icann_suffix("x.duckdns.org") == "org");
  CHECK(icann_suffix("abc.presse.ci") == "presse.ci");
  CHECK_FALSE(public_suffix_list_source().empty());
}

TEST_CASE("registrable domains are libpsl's, with the rest of a host remembered") {
  psl_ctx_t* psl = psl_latest(nullptr);
  const psl_ctx_t* ctx = psl != nullptr ? psl : psl_builtin();
  REQUIRE(ctx != nullptr);
  const char* hosts[] = {"parcel-1.example.top",
                         "parcel-2.example.top",
                         "a.b.c.example.top",
                         "example.top",
                         "top",
                         "x.blogspot.co.uk",
                         "y.blogspot.co.uk",
                         "blogspot.co.uk",
                         "co.uk",
                         "a.b.user.github.io",
                         "user.github.io",
                         "github.io",
                         "www.example.ck",
                         "a.www.ck",
                         "www.ck",
                         "b.a.www.ck",
                         "x.city.kawasaki.jp",
                         "city.kawasaki.jp",
                         "a.b.kawasaki.jp",
                         "b.kawasaki.jp",
                         "kawasaki.jp",
                         "host.example.unknowntld",
                         "a.unknowntld",
                         "localhost",
                         "a..example.com",
                         "a.example.com.",
                         "xn--bcher-kva.example",
                         "www.xn--bcher-kva.de",
                         "s3.amazonaws.com",
                         "bucket.s3.amazonaws.com",
                         "a.b.c.d.e.f.example.co.jp",
                         "x.web.app",
                         "web.app"};
  for (int round = 0; round < 2; ++round) {
    for (const char* host : hosts) {
      const char* r = psl_registrable_domain(ctx, host);
      CHECK_MESSAGE(registrable_domain(host) == (r != nullptr ? r : ""), host);
    }
  }
  if (psl != nullptr) psl_free(psl);
}

TEST_CASE("the ICANN suffix is the first ICANN rule from the left, whatever the private ones") {
  // The walk starts at the public suffix the registrable domain ends in
  // (any section); these hosts test that it finds the same answer as a walk
  // over every candidate: private suffixes over ICANN ones, wildcard and
  // exception rules, hosts that are a suffix themselves, unknown TLDs.
  CHECK(icann_suffix("x.blogspot.co.uk") == "co.uk");
  CHECK(icann_suffix("user.github.io") == "io");
  CHECK(icann_suffix("a.b.user.github.io") == "io");
  CHECK(icann_suffix("x.web.app") == "app");
  CHECK(icann_suffix("www.example.ck") == "example.ck");  // "*.ck"
  CHECK(icann_suffix("a.www.ck") == "ck");                // "!www.ck"
  CHECK(icann_suffix("www.ck") == "ck");
  CHECK(icann_suffix("co.uk") == "co.uk");
  CHECK(icann_suffix("github.io") == "io");
  CHECK(icann_suffix("parcel-1.example.top") == "top");
  CHECK(icann_suffix("a.b.c.example.com") == "com");
  CHECK(icann_suffix("host.example.unknowntld") == "unknowntld");
  CHECK(icann_suffix("localhost") == "");
  // Asked again (remembered) and in the other order: the same answers.
  for (int round = 0; round < 2; ++round) {
    CHECK(registrable_domain("x.blogspot.co.uk") == "x.blogspot.co.uk");
    CHECK(icann_suffix("x.blogspot.co.uk") == "co.uk");
    CHECK(icann_suffix("y.blogspot.co.uk") == "co.uk");
    CHECK(registrable_domain("y.blogspot.co.uk") == "y.blogspot.co.uk");
  }
}
