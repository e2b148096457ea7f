// How provider answers enter a report: locating evidence in the analysed
// texts (CONTRACT §1: a signal whose evidence cannot be located is never
// emitted, also when an AI provider proposed it) and checking an AI reply
// against the contract. The stages that ask the providers are
// providers/reputation_stage.h and providers/ai_stage.h.
#ifndef SCAMCHECK_PROVIDERS_REPORT_MERGE_H_
#define SCAMCHECK_PROVIDERS_REPORT_MERGE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decode/mime.h"
#include "scamcheck/providers.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

// One text of the input and the location name its spans index
// ("content", "header:Subject", "body", "ocr", ...).
struct EvidenceText {
  std::string location;
  std::string_view text;
};

// The texts of analysed input whose spans signals index, in order: for an
// e-mail its decoded headers and non-attachment parts; for an image or
// document the extracted text ("ocr" / "document"); else "content".
std::vector<EvidenceText> evidence_texts(Kind kind, std::string_view analysed,
                                         const ParsedEmail& email);

struct LocatedEvidence {
  std::string location;
  Span span;
};

// The first verbatim occurrence of `evidence` in `texts`, in their order.
// Blank evidence is never located.
std::optional<LocatedEvidence> locate_evidence(const std::vector<EvidenceText>& texts,
                                               std::string_view evidence);

// Like locate_evidence(), but ASCII letters match case-insensitively (a URL
// host is case-insensitive); the span still covers the input's own bytes.
std::optional<LocatedEvidence> locate_evidence_nocase(const std::vector<EvidenceText>& texts,
                                                      std::string_view evidence);

// The input's own spelling of a URL of the report: the URL itself, without
// its scheme, without a trailing "/", or its host, whichever is found first.
std::optional<LocatedEvidence> locate_url(const std::vector<EvidenceText>& texts,
                                          const UrlInfo& url);

// OK if `reply` keeps CONTRACT §1: score 0-100 agreeing with the verdict, a
// summary, 1-4 actions each with an icon and a text.
Status check_ai_reply(const AiReply& reply);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_REPORT_MERGE_H_
