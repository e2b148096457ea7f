// A small streaming JSON writer for provider requests (RapidJSON is an
// adapter dependency only). Strings are escaped per RFC 8259; bytes that are
// not valid UTF-8 become U+FFFD, so the output is always valid JSON.
#ifndef SCAMCHECK_PROVIDERS_JSON_WRITER_H_
#define SCAMCHECK_PROVIDERS_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scamcheck::internal {

// Appends `s` as a JSON string literal (quotes included) to `out`.
void append_json_string(std::string& out, std::string_view s);

// Writes one JSON value into a string; commas and colons are placed for
// the caller. Misuse (a value where a key is due) is a programming error
// that yields invalid JSON, not undefined behaviour.
class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& string(std::string_view value);
  JsonWriter& number(std::int64_t value);
  JsonWriter& boolean(bool value);
  // Appends `json`, already serialized, as one value.
  JsonWriter& raw(std::string_view json);

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void before_value();

  std::string out_;
  // Per open container: whether it has a member yet.
  std::vector<bool> has_member_;
  bool after_key_ = false;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_JSON_WRITER_H_
