#include "providers/ai_stage.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "decode/charset.h"

namespace scamcheck::internal {

std::unique_ptr<AiStage> AiStage::create(const Options& options, const Texts& texts) {
  if (!options.ai_provider) return nullptr;
  return std::unique_ptr<AiStage>(new AiStage(options, texts));
}

AiStage::AiStage(const Options& options, const Texts& texts)
    : provider_(options.ai_provider),
      breaker_(std::make_unique<CircuitBreaker>(
          options.ai_breaker_failures, std::chrono::milliseconds(options.ai_breaker_open_ms))),
      texts_(texts) {
  for (const GlossaryEntry& e : texts_.entries()) signal_keys_.push_back(e.key);
}

void AiStage::ask(Kind kind, std::string_view analysed, const ParsedEmail& email,
                  const std::vector<EvidenceText>& texts, Report& report) const {
  if (!breaker_->allow()) {
    skipped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // An email is sent as its decoded headers and text parts, which is what
  // the signals' spans index.
  std::string email_text;
  if (kind == Kind::kEmail) {
    for (const EmailHeader& h : email.headers) {
      email_text.append(h.name).append(": ").append(h.value).push_back('\n');
    }
    for (const EmailPart& p : email.parts) {
      if (p.type == EmailPart::Type::kAttachment) continue;
      email_text.append("\n").append(p.text).push_back('\n');
    }
    analysed = email_text;
  }
  AiRequest request;
  request.content = truncate_utf8(analysed, kMaxContentBytes);
  request.kind = kind;
  request.locale = report.locale;
  request.heuristic_verdict = report.verdict;
  request.heuristic_score = report.risk_score;
  for (const Signal& s : report.signals) {
    request.heuristic_signals.push_back(AiSignal{s.key, s.severity, s.evidence});
  }
  request.signal_keys = signal_keys_;

  requests_.fetch_add(1, std::memory_order_relaxed);
  Result<AiReply> reply = Status::internal("no reply");
  try {
    reply = provider_->analyze(request);
  } catch (...) {
    reply = Status::internal("the AI provider threw");
  }
  const Status valid = reply.ok() ? check_ai_reply(*reply) : reply.status();
  if (!valid.ok()) {
    failures_.fetch_add(1, std::memory_order_relaxed);
    breaker_->record_failure();
    return;
  }
  breaker_->record_success();
  answers_.fetch_add(1, std::memory_order_relaxed);

  const Catalog& catalog = texts_.catalog(report.locale);
  auto same = [](const Signal& a, const Signal& b) {
    return a.key == b.key && a.location == b.location && a.span.start == b.span.start &&
           a.span.end == b.span.end;
  };
  // The provider's located signals first, then the heuristic's own (their
  // evidence is located by construction).
  std::vector<Signal> signals;
  for (AiSignal& proposed : reply->signals) {
    // Glossary keys only, and only with evidence found verbatim.
    const GlossaryEntry* entry = texts_.find(proposed.key);
    const SignalTexts* t = nullptr;
    if (entry != nullptr) {
      auto it = entry->texts.find(catalog.locale);
      if (it != entry->texts.end()) t = &it->second;
    }
    std::optional<LocatedEvidence> at =
        t != nullptr ? locate_evidence(texts, proposed.evidence) : std::nullopt;
    if (!at) {
      signals_dropped_.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    Signal s;
    s.key = entry->key;
    s.severity = proposed.severity;
    s.evidence = std::move(proposed.evidence);
    s.location = std::move(at->location);
    s.span = at->span;
    s.explanation = t->explanation;
    if (std::none_of(signals.begin(), signals.end(), [&](const Signal& x) { return same(x, s); })) {
      signals.push_back(std::move(s));
    }
  }
  for (Signal& s : report.signals) {
    if (std::none_of(signals.begin(), signals.end(), [&](const Signal& x) { return same(x, s); })) {
      signals.push_back(std::move(s));
    }
  }
  // Confidence stays the heuristic's when both agree; a disagreement
  // between the two analyses is itself uncertainty.
  if (reply->verdict != report.verdict) report.confidence = 50;
  report.verdict = reply->verdict;
  report.risk_score = reply->risk_score;
  report.risk_text = catalog.risk_text[static_cast<int>(reply->verdict)];
  report.summary_plain = std::move(reply->summary);
  report.actions = std::move(reply->actions);
  report.signals = std::move(signals);
  report.model_used = std::move(reply->model);
  report.input_tokens = reply->input_tokens;
  report.output_tokens = reply->output_tokens;
}

void AiStage::add_stats(ProviderStats& stats) const {
  stats.ai_configured = true;
  stats.ai_breaker = breaker_->state();
  stats.ai_requests = requests_.load(std::memory_order_relaxed);
  stats.ai_answers = answers_.load(std::memory_order_relaxed);
  stats.ai_failures = failures_.load(std::memory_order_relaxed);
  stats.ai_skipped = skipped_.load(std::memory_order_relaxed);
  stats.ai_signals_dropped = signals_dropped_.load(std::memory_order_relaxed);
}

}  // namespace scamcheck::internal
