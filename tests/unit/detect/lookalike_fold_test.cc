// The look-alike fold, and its two callers agreeing on the same words: the
// brand matcher for host labels (url/brands) and the confusable-word check
// for text (detect/unicode_checks).
#include "detect/lookalike_fold.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "detect/unicode_checks.h"
#include "url/brands.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

std::string fold(std::string_view s) {
  std::string out;
  ascii_skeleton(s, out);
  return out;
}

const BrandTable& brand_table() {
  static const std::unique_ptr<BrandTable> t = [] {
    auto loaded = BrandTable::load(DataSource(SCAMCHECK_DATA_DIR));
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
    return std::move(loaded.value());
  }();
  return *t;
}

const UnicodeChecker& unicode_checker() {
  static const std::unique_ptr<UnicodeChecker> c = [] {
    auto created = UnicodeChecker::create({"microsoft", "paypal", "amazon", "ikea", "netflix"});
    REQUIRE(created.ok());
    return std::move(created).value();
  }();
  return *c;
}

// The brand a host label imitates by its fold (a homoglyph), or "".
std::string brand_of_label(const std::string& label) {
  LookalikeMatch m = brand_table().lookalike(label, fold(label));
  if (m.kind != LookalikeKind::kHomoglyph) return "";
  return brand_table().brands()[static_cast<std::size_t>(m.brand)].id;
}

bool confusable_in_text(const std::string& word) {
  Findings findings;
  unicode_checker().check("Sign in to " + word + " now", findings);
  for (const Finding& f : findings) {
    if (f.key == "confusable_word") return true;
  }
  return false;
}

}  // namespace

TEST_CASE("the fold: lower case, digits and i/l as letters, rn->m and vv->w") {
  CHECK(fold("PayPal") == "paypal");
  CHECK(fold("paypaI") == "paypal");
  CHECK(fold("paypa1") == "paypal");
  CHECK(fold("pay|pal") == "paylpal");
  CHECK(fold("Microsoft") == "mlcrosoft");
  CHECK(fold("rnicrosoft") == "mlcrosoft");
  CHECK(fold("micros0ft") == "mlcrosoft");
  CHECK(fold("M1CROSOFT") == "mlcrosoft");
  CHECK(fold("vvhatsapp") == "whatsapp");
  CHECK(fold("4m4z0n") == "amazon");
  CHECK(fold("3573789") == "estetbg");
  // Left to right, never overlapping.
  CHECK(fold("rnm") == "mm");
  CHECK(fold("rrn") == "rm");
  CHECK(fold("vvv") == "wv");
  // Everything else is kept, non-ASCII bytes included.
  CHECK(fold("a-b.c") == "a-b.c");
  CHECK(fold("p\xD0\xB0ypal") == "p\xD0\xB0ypal");
  CHECK(fold("") == "");
}

TEST_CASE("the fold appends into a buffer as into a string") {
  std::string out = "r";
  append_lookalike_fold(out, 'n');
  CHECK(out == "m");
  append_lookalike_fold(out, 'V');
  append_lookalike_fold(out, 'v');
  CHECK(out == "mw");
}

TEST_CASE("host labels and words of a text match their brand the same way") {
  struct Case {
    const char* word;
    const char* brand;
  };
  for (const Case& c :
       {Case{"rnicrosoft", "microsoft"}, Case{"micros0ft", "microsoft"},
        Case{"m1crosoft", "microsoft"}, Case{"paypaI", "paypal"}, Case{"paypa1", "paypal"},
        Case{"arnazon", "amazon"}, Case{"amaz0n", "amazon"}, Case{"netf1ix", "netflix"}}) {
    CAPTURE(c.word);
    CHECK(fold(c.word) == fold(c.brand));
    CHECK(brand_of_label(lower_ascii(c.word)) == c.brand);  // host names are lower case
    CHECK(confusable_in_text(c.word));
  }
  // In text, the brand written normally is no look-alike.
  CHECK(!confusable_in_text("PayPal"));
}

}  // namespace scamcheck::internal
