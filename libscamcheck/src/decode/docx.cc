#include "decode/docx.h"

#include <zip.h>

#include <algorithm>
#include <memory>
#include <pugixml.hpp>
#include <unordered_set>
#include <vector>

#include "decode/document.h"
#include "decode/image.h"
#include "util/text.h"

namespace scamcheck::internal {
namespace {

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

constexpr char kDocumentXml[] = "word/document.xml";
constexpr char kDocumentRels[] = "word/_rels/document.xml.rels";
// Hyperlink targets listed at most: a document with thousands of links
// should not cost thousands of URL analyses.
constexpr std::size_t kMaxLinks = 200;
// XML read at most from document.xml and from its relationships: more
// than the text the checks read (DecodeLimits::max_text_bytes) in any
// ordinary document; inflating and parsing the rest of a 20 MiB part
// would cost far more than the checks themselves.
constexpr std::size_t kMaxXmlPrefixBytes = std::size_t{1} << 20;

Status too_large(std::size_t limit) {
  return Status::out_of_range("the DOCX inflates to more than " + std::to_string(limit) +
                              " bytes of XML (a zip bomb?)");
}

// Inflates entry `name` into *out, counting against *budget, and stops
// after `prefix` bytes (*cut is then true). A missing entry leaves *out
// empty. An entry that inflates to more than the zip directory says is a
// zip bomb hiding its size.
Status read_entry(zip_t* zip, const char* name, std::size_t limit, std::size_t* budget,
                  std::size_t prefix, std::string* out, bool* cut) {
  const zip_int64_t index = zip_name_locate(zip, name, 0);
  if (index < 0) return {};
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(zip, static_cast<zip_uint64_t>(index), 0, &st) != 0) {
    return Status::invalid_argument("the DOCX archive is damaged");
  }
  if ((st.valid & ZIP_STAT_SIZE) && st.size > *budget) return too_large(limit);
  std::unique_ptr<zip_file_t, ZipFileCloser> file(
      zip_fopen_index(zip, static_cast<zip_uint64_t>(index), 0));
  if (!file) return Status::invalid_argument("the DOCX archive is damaged or encrypted");
  char buffer[1 << 16];
  for (;;) {
    if (out->size() >= prefix) {
      *cut = true;
      break;
    }
    const std::size_t want = std::min(sizeof buffer, prefix - out->size());
    const zip_int64_t n = zip_fread(file.get(), buffer, want);
    if (n < 0) return Status::invalid_argument("the DOCX archive is damaged (cannot inflate)");
    if (n == 0) break;
    // The directory may understate the size: the limit holds while inflating.
    if (static_cast<std::size_t>(n) > *budget) return too_large(limit);
    *budget -= static_cast<std::size_t>(n);
    out->append(buffer, static_cast<std::size_t>(n));
    if ((st.valid & ZIP_STAT_SIZE) && out->size() > st.size) return too_large(limit);
  }
  if (*cut && (st.valid & ZIP_STAT_SIZE) && st.size <= out->size()) *cut = false;
  return {};
}

std::string_view local_name(const pugi::xml_node& node) {
  std::string_view name = node.name();
  const std::size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

std::string_view attribute_local(const pugi::xml_node& node, std::string_view local) {
  for (const pugi::xml_attribute& a : node.attributes()) {
    std::string_view name = a.name();
    const std::size_t colon = name.find(':');
    if (colon != std::string_view::npos) name.remove_prefix(colon + 1);
    if (name == local) return a.value();
  }
  return {};
}

// Walks the tree without recursion (a deeply nested file cannot exhaust
// the stack), writing the visible text and collecting hyperlink ids, and
// stops once the text holds more than `enough` bytes (true then).
bool extract_text(const pugi::xml_node& root, std::size_t enough, std::string* text,
                  std::unordered_set<std::string>* link_ids) {
  pugi::xml_node node = root.first_child();
  while (node) {
    if (text->size() > enough) return true;
    bool descend = true;
    if (node.type() == pugi::node_element) {
      const std::string_view name = local_name(node);
      if (name == "t") {
        text->append(node.child_value());
        descend = false;
      } else if (name == "tab") {
        text->push_back('\t');
      } else if (name == "br" || name == "cr") {
        text->push_back('\n');
      } else if (name == "delText" || name == "instrText") {
        descend = false;  // deleted text and field codes are not shown
      } else if (name == "hyperlink") {
        const std::string_view id = attribute_local(node, "id");
        if (!id.empty()) link_ids->emplace(id);
      }
    }
    if (descend && node.first_child()) {
      node = node.first_child();
      continue;
    }
    // Leave finished elements, ending a line after each paragraph.
    while (node && node != root) {
      if (node.type() == pugi::node_element && local_name(node) == "p") text->push_back('\n');
      if (node.next_sibling()) {
        node = node.next_sibling();
        break;
      }
      node = node.parent();
    }
    if (node == root) break;
  }
  return false;
}

constexpr unsigned kXmlParse = pugi::parse_default | pugi::parse_ws_pcdata_single;

}  // namespace

Result<DocumentText> read_docx_text(std::string_view bytes, const DecodeLimits& limits) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (source == nullptr) {
    zip_error_fini(&error);
    return Status::internal("cannot read the DOCX from memory");
  }
  std::unique_ptr<zip_t, ZipCloser> zip(zip_open_from_source(source, ZIP_RDONLY, &error));
  zip_error_fini(&error);
  if (!zip) {
    zip_source_free(source);
    return Status::invalid_argument("the DOCX is not a readable zip archive");
  }
  if (zip_name_locate(zip.get(), kDocumentXml, 0) < 0) {
    return Status::invalid_argument("the zip archive is not a Word document (no " +
                                    std::string(kDocumentXml) + ")");
  }
  const std::size_t limit = limits.max_decompressed_bytes;
  std::size_t budget = limit;
  std::string xml;
  bool xml_cut = false;
  if (Status s =
          read_entry(zip.get(), kDocumentXml, limit, &budget, kMaxXmlPrefixBytes, &xml, &xml_cut);
      !s.ok()) {
    return s;
  }
  std::string rels_xml;
  bool rels_cut = false;
  if (Status s = read_entry(zip.get(), kDocumentRels, limit, &budget, kMaxXmlPrefixBytes, &rels_xml,
                            &rels_cut);
      !s.ok()) {
    return s;
  }
  zip.reset();

  // A prefix of the XML ends inside an element: pugixml keeps the tree
  // parsed up to there, which is all the text the prefix holds. Cut before
  // its last tag, so that no text node ends inside a UTF-8 character.
  if (xml_cut) {
    const std::size_t last_tag = xml.rfind('<');
    if (last_tag != std::string::npos) xml.resize(last_tag);
  }
  pugi::xml_document doc;
  if (!doc.load_buffer(xml.data(), xml.size(), kXmlParse) && !xml_cut) {
    return Status::invalid_argument("the DOCX's document.xml is not well-formed XML");
  }
  xml = std::string();
  DocumentText out;
  std::unordered_set<std::string> link_ids;
  // Room for the blanks tidy_text drops; the rest is not read.
  const bool stopped = extract_text(doc, 2 * limits.max_text_bytes, &out.text, &link_ids);
  doc.reset();
  out.text = tidy_text(out.text);
  out.cut = cut_document_text(out.text, limits.max_text_bytes) || stopped || xml_cut;

  // The targets of the links of the text read; when the document was cut,
  // of every link of the document (its relationships say where each goes;
  // reading them is cheap), up to kMaxLinks either way.
  pugi::xml_document rels;
  if ((!link_ids.empty() || out.cut) &&
      (rels.load_buffer(rels_xml.data(), rels_xml.size(), kXmlParse) || rels_cut)) {
    std::unordered_set<std::string> seen;
    for (const pugi::xml_node& r : rels.document_element().children()) {
      if (seen.size() >= kMaxLinks) break;
      if (local_name(r) != "Relationship") continue;
      if (std::string_view(r.attribute("TargetMode").value()) != "External") continue;
      if (out.cut ? !std::string_view(r.attribute("Type").value()).ends_with("/hyperlink")
                  : !link_ids.contains(r.attribute("Id").value())) {
        continue;
      }
      const std::string target = r.attribute("Target").value();
      if (target.empty() || !is_valid_utf8(target) || target.find('\n') != std::string::npos ||
          !seen.insert(target).second) {
        continue;
      }
      if (!out.text.empty()) out.text.push_back('\n');
      out.text += target;
    }
  }
  return out;
}

}  // namespace scamcheck::internal
