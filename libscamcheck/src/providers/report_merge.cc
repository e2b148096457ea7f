#include "providers/report_merge.h"

#include <algorithm>

namespace scamcheck::internal {
namespace {

bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r\n\f\v") == s.npos; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::optional<LocatedEvidence> locate_evidence(const std::vector<EvidenceText>& texts,
                                               std::string_view evidence) {
  if (evidence.empty() || is_blank(evidence)) return std::nullopt;
  for (const EvidenceText& t : texts) {
    const std::size_t at = t.text.find(evidence);
    if (at != std::string_view::npos)
      return LocatedEvidence{t.location, {at, at + evidence.size()}};
  }
  return std::nullopt;
}

std::optional<LocatedEvidence> locate_evidence_nocase(const std::vector<EvidenceText>& texts,
                                                      std::string_view evidence) {
  if (evidence.empty() || is_blank(evidence)) return std::nullopt;
  for (const EvidenceText& t : texts) {
    auto it = std::search(t.text.begin(), t.text.end(), evidence.begin(), evidence.end(),
                          [](char a, char b) { return lower(a) == lower(b); });
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
  if (is_blank(reply.summary)) return Status::internal("AI reply: empty summary");
  if (reply.actions.empty() || reply.actions.size() > 4) {
    return Status::internal("AI reply: not 1-4 actions");
  }
  for (const Action& a : reply.actions) {
    if (is_blank(a.icon) || is_blank(a.text)) {
      return Status::internal("AI reply: an action without icon or text");
    }
  }
  if (is_blank(reply.model)) return Status::internal("AI reply: no model name");
  if (reply.input_tokens < 0 || reply.output_tokens < 0) {
    return Status::internal("AI reply: negative token counts");
  }
  return {};
}

}  // namespace scamcheck::internal
