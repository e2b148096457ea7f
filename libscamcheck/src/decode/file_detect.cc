#include "decode/file_detect.h"

#include <string>
#include <utility>
#include <vector>

#include "url/url_input.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

// The QR payload at [start, end) of `text`; findings get location "qr".
Status detect_qr_payload(std::string_view text, std::size_t start, std::size_t end,
                         const TextStage& stage, Findings& findings, Report& report) {
  const std::string_view payload = text.substr(start, end - start);
  const std::size_t first = findings.size();
  if (is_url_payload(payload)) {
    LinkMatch link = link_for_url_input(payload);
    if (link.end > link.start) {
      link.start += start;
      link.end += start;
      stage.detect_link(text, link, {}, findings, report);
    }
  } else {
    if (Status s = stage.detect_text(payload, "qr", {}, findings, report); !s.ok()) return s;
    for (std::size_t i = first; i < findings.size(); ++i) {
      findings[i].start += start;
      findings[i].end += start;
    }
  }
  for (std::size_t i = first; i < findings.size(); ++i) findings[i].location = "qr";
  return {};
}

}  // namespace

bool is_url_payload(std::string_view payload) {
  payload = trim(payload);
  if (payload.empty() || payload.find_first_of(" \t\r\n") != std::string_view::npos) return false;
  const std::vector<LinkMatch> links = extract_links(payload);
  return links.size() == 1 && links[0].start == 0 && links[0].end == payload.size();
}

Status detect_file(const FileReader& files, std::string_view content, Kind kind,
                   const TextStage& stage, Findings& findings, Report& report) {
  Result<FileText> file = files.read(content, kind);
  if (!file.ok()) return file.status();
  std::string extracted = std::move(file->text);
  const std::size_t text_end = extracted.size();
  std::vector<std::pair<std::size_t, std::size_t>> payloads;
  for (const std::string& p : file->qr_payloads) {
    if (!extracted.empty()) extracted.push_back('\n');
    const std::size_t start = extracted.size();
    extracted += p;
    payloads.emplace_back(start, extracted.size());
  }
  report.extracted_text = std::move(extracted);
  // A document's text past kMaxDocumentTextBytes was not read (CONTRACT
  // §10: `truncated` says something was left out).
  if (file->cut) report.truncated = true;
  const std::string_view text = *report.extracted_text;
  if (text_end > 0) {
    const std::string_view location = kind == Kind::kImage ? "ocr" : "document";
    if (Status s = stage.detect_text(text.substr(0, text_end), location, {}, findings, report);
        !s.ok()) {
      return s;
    }
  }
  for (const auto& [start, end] : payloads) {
    if (Status s = detect_qr_payload(text, start, end, stage, findings, report); !s.ok()) return s;
  }
  keep_first_of_each_url(report.urls);  // however often the text and the codes repeat it
  return {};
}

}  // namespace scamcheck::internal
