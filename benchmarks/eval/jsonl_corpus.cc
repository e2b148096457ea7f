#include "jsonl_corpus.h"

#include <simdjson.h>
#include <utf8proc.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace scamcheck::bench {
namespace {

namespace fs = std::filesystem;

// Decodes one UTF-8 sequence at text[i]. Returns its length and sets *cp, or
// 0 if the bytes there are not a valid (shortest-form, non-surrogate)
// sequence.
std::size_t decode_utf8(std::string_view text, std::size_t i, char32_t* cp) {
  utf8proc_int32_t value = 0;
  const utf8proc_ssize_t len =
      utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + i),
                       static_cast<utf8proc_ssize_t>(text.size() - i), &value);
  if (len <= 0) return 0;
  *cp = static_cast<char32_t>(value);
  return static_cast<std::size_t>(len);
}

bool parse_label(std::string_view name, Label* label) {
  if (name == "ham") {
    *label = Label::kHam;
  } else if (name == "spam") {
    *label = Label::kSpam;
  } else if (name == "scam") {
    *label = Label::kScam;
  } else {
    return false;
  }
  return true;
}

// Parses one JSONL line into *record; on failure returns a message.
std::string parse_line(simdjson::ondemand::parser& parser, std::string_view line, Record* record) {
  simdjson::padded_string padded(line);
  simdjson::ondemand::document doc;
  if (auto err = parser.iterate(padded).get(doc)) return simdjson::error_message(err);
  simdjson::ondemand::object object;
  if (auto err = doc.get_object().get(object)) return simdjson::error_message(err);
  std::string label_name;
  std::string encoding = "utf-8";
  bool has_text = false;
  for (auto field : object) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return simdjson::error_message(err);
    if (key != "id" && key != "label" && key != "kind" && key != "lang" && key != "text" &&
        key != "raw_encoding" && key != "family") {
      continue;  // "source" and anything else
    }
    std::string_view value;
    auto json_value = field.value();
    if (key == "id" && json_value.type() == simdjson::ondemand::json_type::number) {
      // Some fixture writers may use numeric ids; keep them as text.
      std::string_view raw = json_value.raw_json_token();
      while (!raw.empty() && raw.back() == ' ') raw.remove_suffix(1);
      record->id = std::string(raw);
      continue;
    }
    if (auto err = json_value.get_string().get(value)) {
      return "field \"" + std::string(key) + "\": " + simdjson::error_message(err);
    }
    if (key == "id") {
      record->id = std::string(value);
    } else if (key == "label") {
      label_name = std::string(value);
    } else if (key == "kind") {
      record->kind = std::string(value);
    } else if (key == "lang") {
      record->lang = std::string(value);
    } else if (key == "text") {
      record->text = std::string(value);
      has_text = true;
    } else if (key == "raw_encoding") {
      encoding = std::string(value);
    } else if (key == "family") {
      record->family = std::string(value);
    }
  }
  if (!has_text) return "missing \"text\"";
  if (!parse_label(label_name, &record->label)) {
    return "unknown label \"" + label_name + "\"";
  }
  if (record->kind.empty()) record->kind = "text";
  if (encoding == "latin-1") {
    auto bytes = latin1_to_bytes(record->text);
    if (!bytes) return "raw_encoding latin-1 but the text has a code point above U+00FF";
    record->text = std::move(*bytes);
  } else if (encoding != "utf-8") {
    return "unknown raw_encoding \"" + encoding + "\"";
  }
  return {};
}

}  // namespace

std::string_view to_string(Label label) {
  switch (label) {
    case Label::kHam:
      return "ham";
    case Label::kSpam:
      return "spam";
    case Label::kScam:
      return "scam";
  }
  return "?";
}

std::optional<std::string> latin1_to_bytes(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    char32_t cp = 0;
    const std::size_t len = decode_utf8(utf8, i, &cp);
    if (len == 0 || cp > 0xFF) return std::nullopt;
    out.push_back(static_cast<char>(cp));
    i += len;
  }
  return out;
}

bool load_jsonl(const std::string& path, std::vector<Record>* records, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string content = buffer.str();
  simdjson::ondemand::parser parser;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < content.size()) {
    std::size_t eol = content.find('\n', pos);
    if (eol == std::string::npos) eol = content.size();
    std::string_view line(content.data() + pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    Record record;
    std::string message = parse_line(parser, line, &record);
    if (!message.empty()) {
      *error = path + ":" + std::to_string(line_no) + ": " + message;
      return false;
    }
    if (record.id.empty())
      record.id = fs::path(path).stem().string() + ":" + std::to_string(line_no);
    records->push_back(std::move(record));
  }
  return true;
}

std::vector<CorpusFile> list_corpora(const std::string& dir, const std::string& split) {
  std::vector<CorpusFile> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_directory()) continue;
    const fs::path file = entry.path() / (split + ".jsonl");
    if (fs::is_regular_file(file)) {
      out.push_back({entry.path().filename().string(), file.string()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  return out;
}

std::vector<CorpusFile> list_jsonl_files(const std::string& dir) {
  std::vector<CorpusFile> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".jsonl") {
      out.push_back({entry.path().stem().string(), entry.path().string()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  return out;
}

bool load_eml_dir(const std::string& dir, Label label, std::vector<Record>* records,
                  std::string* error) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".eml")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      *error = path.string() + ": cannot read";
      return false;
    }
    Record r;
    r.id = path.filename().string();
    r.label = label;
    r.kind = "email";
    r.text = std::move(bytes);
    records->push_back(std::move(r));
  }
  return true;
}

std::string preview(std::string_view text, std::size_t max_chars) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size() && chars < max_chars; ++chars) {
    char32_t cp = 0;
    const std::size_t len = decode_utf8(text, i, &cp);
    char hex[8];
    if (len == 0) {
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(text[i]));
      out += hex;
      ++i;
      continue;
    }
    if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\\') {
      out += "\\\\";
    } else if (cp < 0x20 || cp == 0x7F) {
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned>(cp));
      out += hex;
    } else if (cp >= 0x80 && cp < 0xA0) {  // C1 controls
      std::snprintf(hex, sizeof hex, "\\u%04X", static_cast<unsigned>(cp));
      out += hex;
    } else {
      out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

}  // namespace scamcheck::bench
