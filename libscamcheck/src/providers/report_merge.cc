#include "providers/report_merge.h"

#include <algorithm>

#include "util/ascii.h"

namespace scamcheck::internal {

std::vector<EvidenceText> evidence_texts(Kind kind, std::string_view analysed,
                                         const ParsedEmail& email) {
  std::vector<EvidenceText> texts;
  if (kind == Kind::kEmail) {
    for (const EmailHeader& h : email.headers) texts.push_back({h.location(), h.value});
    for (const EmailPart& p : email.parts) {
      if (p.type != EmailPart::Type::kAttachment) texts.push_back({p.location, p.text});
    }
  } else if (kind == Kind::kImage || kind == Kind::kDocument) {
    texts.push_back({kind == Kind::kImage ? "ocr" : "document", analysed});
  } else {
    texts.push_back({"content", analysed});
  }
  return texts;
}

std::optional<LocatedEvidence> locate_evidence(const std::vector<EvidenceText>& texts,
                                               std::string_view evidence) {
  if (trim(evidence).empty()) return std::nullopt;
  for (const EvidenceText& t : texts) {
    const std::size_t at = t.text.find(evidence);
    if (at != std::string_view::npos)
      return LocatedEvidence{t.location, {at, at + evidence.size()}};
  }
  return std::nullopt;
}

std::optional<LocatedEvidence> locate_evidence_nocase(const std::vector<EvidenceText>& texts,
                                                      std::string_view evidence) {
  if (trim(evidence).empty()) return std::nullopt;
  for (const EvidenceText& t : texts) {
    auto it = std::search(t.text.begin(), t.text.end(), evidence.begin(), evidence.end(),
                          [](char a, char b) { return ascii_lower(a) == ascii_lower(b); });
    if (it != t.text.end()) {
      const auto at = static_cast<std::size_t>(it - t.text.begin());
      return LocatedEvidence{t.location, {at, at + evidence.size()}};
    }
  }
  return std::nullopt;
}

std::optional<LocatedEvidence> locate_url(const std::vector<EvidenceText>& texts,
                                          const UrlInfo& url) {
  std::string_view u = url.url;
  if (auto found = locate_evidence_nocase(texts, u)) return found;
  const std::size_t scheme = u.find("://");
  if (scheme != std::string_view::npos) u.remove_prefix(scheme + 3);
  if (auto found = locate_evidence_nocase(texts, u)) return found;
  while (!u.empty() && u.back() == '/') u.remove_suffix(1);
  if (auto found = locate_evidence_nocase(texts, u)) return found;
  return locate_evidence_nocase(texts, url.host);
}

Status check_ai_reply(const AiReply& reply) {
  if (reply.risk_score < 0 || reply.risk_score > 100) {
    return Status::internal("AI reply: score outside 0-100");
  }
  if (verdict_for_score(reply.risk_score) != reply.verdict) {
    return Status::internal("AI reply: verdict does not agree with score");
  }
  if (trim(reply.summary).empty()) return Status::internal("AI reply: empty summary");
  if (reply.actions.empty() || reply.actions.size() > 4) {
    return Status::internal("AI reply: not 1-4 actions");
  }
  for (const Action& a : reply.actions) {
    if (trim(a.icon).empty() || trim(a.text).empty()) {
      return Status::internal("AI reply: an action without icon or text");
    }
  }
  if (trim(reply.model).empty()) return Status::internal("AI reply: no model name");
  if (reply.input_tokens < 0 || reply.output_tokens < 0) {
    return Status::internal("AI reply: negative token counts");
  }
  return {};
}

}  // namespace scamcheck::internal
