// The check page of the web interface (/): a message, URL, email source or
// uploaded file is checked through the same flow and allowance as the API
// (signed in: api/scan_flow on the user's plan bucket; anonymous: the
// per-address allowance of the check API), and the report shown with the
// evidence of every signal marked at its span.
#include <simdjson.h>

#include <algorithm>

#include "api/check_api.h"
#include "api/scan_flow.h"
#include "common/status_map.h"
#include "http/multipart.h"
#include "http/router.h"
#include "ids.h"
#include "logging.h"
#include "scamcheck/analyzer.h"
#include "server_limits.h"
#include "web/web_support.h"

namespace scamcheck::server::web {
namespace {

// What the check form sent.
struct CheckInput {
  std::string content;      // the text, or the file's bytes
  std::string kind_choice;  // auto, text, email, url (the select)
  Kind kind = Kind::kText;
  bool file = false;
};

// The state of the check page being answered.
struct CheckView {
  int status = 200;
  std::string notice;
  bool notice_ok = false;
  std::string content;  // refilled into the form (text only)
  std::string kind_choice = "auto";
  std::string remaining;
  std::string report_html;
};

std::int64_t anonymous_limit(const Page& page) {
  CheckApi* api = page.app.check_api();
  return api ? api->options().anonymous_checks_per_day : CheckApiOptions{}.anonymous_checks_per_day;
}

// "Checks left today" for the page's caller.
std::string remaining_text(const Page& page, const std::optional<QuotaDecision>& known) {
  const std::int64_t now = unix_now();
  if (const User* user = page.user()) {
    std::optional<QuotaDecision> d = known;
    if (!d) {
      Result<QuotaDecision> peek = page.app.quota().peek(*user, now);
      if (!peek.ok()) return "";
      d = *peek;
    }
    if (d->limit < 0) return page.text("web.check.unlimited");
    return page.text("web.check.remaining",
                     {{"remaining", std::to_string(std::max<std::int64_t>(0, d->remaining))},
                      {"limit", std::to_string(d->limit)}});
  }
  const std::int64_t limit = anonymous_limit(page);
  Result<UsageTotals> used = page.app.store().checks().client_usage(page.client(), utc_day(now));
  if (!used.ok()) return "";
  const std::int64_t left = std::max<std::int64_t>(0, limit - used->today);
  return page.text("web.check.remaining",
                   {{"remaining", std::to_string(left)}, {"limit", std::to_string(limit)}}) +
         " " + page.text("web.check.anonymous_note", {{"limit", std::to_string(limit)}});
}

void send_check_page(Page& page, CheckView view) {
  auto dict = page_dictionary(page);
  if (!view.notice.empty()) {
    auto* n = dict->AddSectionDictionary("NOTICE");
    n->SetValue("NOTICE_TEXT", view.notice);
    n->SetValue("NOTICE_CLASS", view.notice_ok ? "ok" : "warn");
  }
  dict->SetValue("CONTENT", view.content);
  std::string kind = view.kind_choice;
  for (char& c : kind) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (kind != "TEXT" && kind != "EMAIL" && kind != "URL") kind = "AUTO";
  dict->ShowSection("KIND_" + kind);
  dict->SetValue("REMAINING", view.remaining);
  dict->SetValue("REPORT", view.report_html);
  send_html(page, view.status, render(page, "check.tpl", *dict, page.text("web.check.title")));
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

// "auto": one word with a dot is a URL; a block of header lines with From
// or Subject is an email; anything else is text.
Kind detect_kind(std::string_view content) {
  std::string_view t = content;
  while (!t.empty() &&
         (t.front() == ' ' || t.front() == '\n' || t.front() == '\r' || t.front() == '\t')) {
    t.remove_prefix(1);
  }
  while (!t.empty() &&
         (t.back() == ' ' || t.back() == '\n' || t.back() == '\r' || t.back() == '\t')) {
    t.remove_suffix(1);
  }
  if (!t.empty() && t.find_first_of(" \t\r\n") == std::string_view::npos &&
      t.find('.') != std::string_view::npos) {
    return Kind::kUrl;
  }
  int headers = 0;
  bool from_or_subject = false;
  std::string_view rest = t;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    if (line.front() == ' ' || line.front() == '\t') continue;   // folded
    if (headers == 0 && line.substr(0, 5) == "From ") continue;  // mbox line
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0 ||
        line.substr(0, colon).find(' ') != std::string_view::npos) {
      return Kind::kText;
    }
    ++headers;
    from_or_subject =
        from_or_subject || starts_with_ci(line, "from:") || starts_with_ci(line, "subject:");
  }
  return headers >= 2 && from_or_subject ? Kind::kEmail : Kind::kText;
}

// Reads the form into *input; answers (403, or the page with a notice) and
// returns false when it is not acceptable.
bool read_form(Page& page, CheckInput* input) {
  Exchange& ex = *page.exchange;
  std::string csrf;
  std::string file;
  if (media_type(ex.request.header("Content-Type")) == "multipart/form-data") {
    Result<FormData> form =
        parse_form_data(ex.request.header("Content-Type"), std::move(ex.request.body));
    if (!form.ok()) {
      send_error(page, 400, "web.error.bad_request.title", "web.error.bad_request");
      return false;
    }
    for (FormPart& part : form->parts) {
      if (part.name == "csrf" && csrf.empty()) csrf = part.body;
      if (part.name == "content" && input->content.empty()) input->content = std::move(part.body);
      if (part.name == "kind" && input->kind_choice.empty()) input->kind_choice = part.body;
      if (part.name == "file" && file.empty()) file = std::move(part.body);
    }
  } else {
    std::optional<Form> form = parse_urlencoded(ex.request.body);
    if (!form) {
      send_error(page, 400, "web.error.bad_request.title", "web.error.bad_request");
      return false;
    }
    csrf = form_value(*form, "csrf");
    input->content = form_value(*form, "content");
    input->kind_choice = form_value(*form, "kind");
  }
  if (!csrf_ok(page, csrf)) {
    send_error(page, 403, "web.error.forbidden.title", "web.error.csrf");
    return false;
  }
  // Browsers send textarea line ends as CRLF; the text as typed has LF.
  std::string text;
  text.reserve(input->content.size());
  for (std::size_t i = 0; i < input->content.size(); ++i) {
    if (input->content[i] == '\r' && i + 1 < input->content.size() &&
        input->content[i + 1] == '\n') {
      continue;
    }
    text.push_back(input->content[i]);
  }
  input->content = std::move(text);
  CheckView view;
  view.content = input->content;
  view.kind_choice = input->kind_choice;
  if (!file.empty()) {
    std::optional<Kind> kind = sniff_kind(file);
    if (!kind) {
      view.status = 422;
      view.notice = page.text("web.check.file_invalid");
      view.remaining = remaining_text(page, std::nullopt);
      send_check_page(page, std::move(view));
      return false;
    }
    input->kind = *kind;
    input->file = true;
    input->content = std::move(file);
    return true;
  }
  if (input->content.find_first_not_of(" \t\r\n") == std::string::npos) {
    view.status = 422;
    view.notice = page.text("web.check.empty");
  } else if (input->content.size() > kMaxContentBytes) {
    view.status = 413;
    view.notice = page.text("web.check.too_large", {{"limit", std::to_string(kMaxContentBytes)}});
  } else {
    const std::string& k = input->kind_choice;
    input->kind = k == "text"    ? Kind::kText
                  : k == "email" ? Kind::kEmail
                  : k == "url"   ? Kind::kUrl
                                 : detect_kind(input->content);
    return true;
  }
  view.remaining = remaining_text(page, std::nullopt);
  send_check_page(page, std::move(view));
  return false;
}

// The page for a failed analysis or store.
void send_failure(Page& page, CheckView view, const Status& status) {
  const int http = adapters::http_status_for(status.code());
  view.status = http == 422 || http == 413 ? 422 : 503;
  view.notice = page.text(view.status == 422 ? "web.check.file_invalid" : "web.check.failed");
  if (view.status == 503) {
    LogLine(LogLevel::kError, "web_check_failed")
        .field("request_id", page.exchange->request_id)
        .field("error", status.to_string());
  }
  view.remaining = remaining_text(page, std::nullopt);
  send_check_page(page, std::move(view));
}

void exhausted(Page& page, CheckView view, std::int64_t limit) {
  view.status = 429;
  view.notice = page.text(page.user() ? "web.check.exhausted" : "web.check.exhausted_anonymous",
                          {{"limit", std::to_string(limit)}});
  view.remaining = remaining_text(page, std::nullopt);
  send_check_page(page, std::move(view));
}

void check_signed_in(const std::shared_ptr<Page>& page, CheckInput input) {
  CheckView view;
  view.kind_choice = input.kind_choice;
  auto shown = std::make_shared<std::string>(input.file ? std::string() : input.content);
  view.content = *shown;
  ScanRequest request;
  request.kind = input.kind;
  request.content = std::move(input.content);
  request.locale = page->locale;
  request.retain_content = page->app.options().retain_content && !input.file;
  const bool file = input.file;
  run_scan_flow(
      page->app, page->app.analyzer(), page->session->user, std::move(request),
      [page, view = std::move(view), shown, file](ScanOutcome outcome) mutable {
        if (outcome.step == ScanStep::kAllowance &&
            outcome.status.code() == StatusCode::kResourceExhausted) {
          return exhausted(*page, std::move(view), outcome.decision ? outcome.decision->limit : 0);
        }
        if (outcome.step != ScanStep::kDone) {
          return send_failure(*page, std::move(view), outcome.status);
        }
        view.report_html = render_report(*page, *outcome.report, file ? nullptr : shown.get());
        view.remaining = remaining_text(*page, outcome.decision);
        send_check_page(*page, std::move(view));
      });
}

void check_anonymous(const std::shared_ptr<Page>& page, CheckInput input) {
  CheckView view;
  view.kind_choice = input.kind_choice;
  if (!input.file) view.content = input.content;
  const std::int64_t limit = anonymous_limit(*page);
  const std::string day = utc_day(unix_now());
  const std::string client = page->client();
  WebStore& web = page->app.store().web();
  Result<bool> taken = web.take_client_unit(client, day, limit);
  if (!taken.ok()) return send_failure(*page, std::move(view), taken.status());
  if (!*taken) return exhausted(*page, std::move(view), limit);
  Result<Report> report = page->app.analyzer().analyze(input.content, input.kind, page->locale);
  if (!report.ok()) {
    (void)web.give_back_client_unit(client, day);
    return send_failure(*page, std::move(view), report.status());
  }
  view.report_html = render_report(*page, *report, input.file ? nullptr : &input.content);
  view.remaining = remaining_text(*page, std::nullopt);
  send_check_page(*page, std::move(view));
}

std::string location_title(const Page& page, const std::string& location) {
  if (location == "content" || location == "body" || location == "ocr" || location == "qr" ||
      location == "document") {
    return page.text("web.report.location." + location);
  }
  if (location == "body:html") return page.text("web.report.location.body_html");
  const std::size_t colon = location.find(':');
  if (colon != std::string::npos) {
    const std::string what = location.substr(0, colon);
    if (what == "header" || what == "attachment") {
      return page.text("web.report.location." + what, {{"name", location.substr(colon + 1)}});
    }
  }
  return location;
}

std::string_view severity_name(Severity s) { return to_string(s); }

}  // namespace

std::string render_report(const Page& page, const Report& report, const std::string* content) {
  // A section of a page dictionary: its T_* texts are found in the parent.
  auto base = page_dictionary(page);
  ctemplate::TemplateDictionary* d = base->AddSectionDictionary("REPORT_ROOT");
  const std::string verdict(to_string(report.verdict));
  d->SetValue("VERDICT", verdict);
  d->SetValue("REPORT_ID", report.id);
  d->SetValue("RISK_TEXT", page.text("web.verdict." + verdict));
  d->SetIntValue("RISK_SCORE", report.risk_score);
  d->SetIntValue("CONFIDENCE", report.confidence);
  d->SetValue("CREATED", page.text("web.report.created",
                                   {{"date", display_time(std::string_view(report.created_at))}}));
  d->SetValue("SUMMARY", report.summary_plain);
  for (const Action& a : report.actions) {
    auto* s = d->AddSectionDictionary("ACTION");
    s->SetValue("ICON", a.icon);
    s->SetValue("TEXT", a.text);
  }

  // The text the marks go into: the submitted text or URL, or the text
  // recognised in a file. Email spans index decoded parts, which are not
  // shown; their evidence is listed under its header or part below.
  const std::string* text = nullptr;
  std::vector<std::string_view> locations;
  if (report.extracted_text) {
    text = &*report.extracted_text;
    locations = {"ocr", "qr", "document"};
    d->SetValue("MESSAGE_TITLE", page.text("web.report.extracted"));
  } else if (content != nullptr && (report.kind == Kind::kText || report.kind == Kind::kUrl)) {
    text = content;
    locations = {"content"};
    d->SetValue("MESSAGE_TITLE", page.text("web.report.message"));
  } else if (content == nullptr) {
    d->ShowSection("STORED_NOTE");
  }
  if (text != nullptr) {
    auto* message = d->AddSectionDictionary("MESSAGE");
    // Signals whose evidence is exactly at their span, in input order; one
    // mark per span (a signal overlapping an earlier mark is only listed).
    std::vector<const Signal*> marks;
    for (const Signal& s : report.signals) {
      if (std::find(locations.begin(), locations.end(), s.location) == locations.end()) continue;
      if (s.span.start >= s.span.end || s.span.end > text->size()) continue;
      if (text->compare(s.span.start, s.span.end - s.span.start, s.evidence) != 0) continue;
      marks.push_back(&s);
    }
    std::stable_sort(marks.begin(), marks.end(), [](const Signal* a, const Signal* b) {
      return a->span.start != b->span.start ? a->span.start < b->span.start
                                            : a->span.end > b->span.end;
    });
    std::size_t pos = 0;
    for (std::size_t i = 0; i < marks.size(); ++i) {
      const Signal& s = *marks[i];
      if (s.span.start < pos) continue;
      if (s.span.start > pos) {
        auto* seg = message->AddSectionDictionary("SEG");
        seg->SetValue("TEXT", text->substr(pos, s.span.start - pos));
        seg->ShowSection("PLAIN");
      }
      std::string explanation = s.explanation;
      for (std::size_t j = i + 1; j < marks.size(); ++j) {
        if (marks[j]->span.start == s.span.start && marks[j]->span.end == s.span.end &&
            explanation.find(marks[j]->explanation) == std::string::npos) {
          explanation += " " + marks[j]->explanation;
        }
      }
      auto* seg = message->AddSectionDictionary("SEG");
      seg->SetValue("TEXT", s.evidence);
      seg->SetValue("KEY", s.key);
      seg->SetValue("SEVERITY", std::string(severity_name(s.severity)));
      seg->SetValue("EXPLANATION", explanation);
      seg->ShowSection("MARK");
      pos = s.span.end;
    }
    if (pos < text->size()) {
      auto* seg = message->AddSectionDictionary("SEG");
      seg->SetValue("TEXT", text->substr(pos));
      seg->ShowSection("PLAIN");
    }
  }

  // Every signal, grouped by where its evidence is (first seen first).
  if (report.signals.empty()) d->ShowSection("NO_SIGNALS");
  std::vector<std::string> order;
  for (const Signal& s : report.signals) {
    if (std::find(order.begin(), order.end(), s.location) == order.end()) {
      order.push_back(s.location);
    }
  }
  for (const std::string& location : order) {
    auto* part = d->AddSectionDictionary("PART");
    part->SetValue("PART_TITLE", location_title(page, location));
    for (const Signal& s : report.signals) {
      if (s.location != location) continue;
      auto* item = part->AddSectionDictionary("SIGNAL");
      const std::string severity(severity_name(s.severity));
      item->SetValue("KEY", s.key);
      item->SetValue("SEVERITY", severity);
      item->SetValue("SEVERITY_TEXT", page.text("web.report.severity." + severity));
      item->SetValue("EVIDENCE", s.evidence);
      item->SetValue("EXPLANATION", s.explanation);
    }
  }
  if (!report.urls.empty()) {
    auto* urls = d->AddSectionDictionary("URLS");
    for (const UrlInfo& u : report.urls) {
      auto* item = urls->AddSectionDictionary("URL");
      item->SetValue("URL_TEXT", u.url);
      item->SetValue("REPUTATION",
                     page.text("web.report.reputation." + std::string(to_string(u.reputation))));
    }
  }
  return render_part("report.tpl", *d);
}

std::optional<Report> report_from_json(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json.data(), json.size()).get(doc)) return std::nullopt;
  Report r;
  std::string_view v;
  std::int64_t n = 0;
  if (doc["id"].get(v)) return std::nullopt;
  r.id = std::string(v);
  if (!doc["kind"].get(v)) r.kind = parse_kind(v).value_or(Kind::kText);
  if (!doc["locale"].get(v)) r.locale = std::string(v);
  if (!doc["risk_score"].get(n)) r.risk_score = static_cast<int>(n);
  r.verdict = verdict_for_score(r.risk_score);
  if (!doc["confidence"].get(n)) r.confidence = static_cast<int>(n);
  if (!doc["summary_plain"].get(v)) r.summary_plain = std::string(v);
  if (!doc["created_at"].get(v)) r.created_at = std::string(v);
  if (!doc["extracted_text"].get(v)) r.extracted_text = std::string(v);
  simdjson::dom::array list;
  if (!doc["actions"].get(list)) {
    for (simdjson::dom::element a : list) {
      Action action;
      if (!a["icon"].get(v)) action.icon = std::string(v);
      if (!a["text"].get(v)) action.text = std::string(v);
      r.actions.push_back(std::move(action));
    }
  }
  if (!doc["signals"].get(list)) {
    for (simdjson::dom::element e : list) {
      Signal s;
      if (!e["key"].get(v)) s.key = std::string(v);
      if (!e["severity"].get(v)) {
        s.severity = v == "high"     ? Severity::kHigh
                     : v == "medium" ? Severity::kMedium
                                     : Severity::kLow;
      }
      if (!e["evidence"].get(v)) s.evidence = std::string(v);
      if (!e["location"].get(v)) s.location = std::string(v);
      if (!e["explanation"].get(v)) s.explanation = std::string(v);
      std::uint64_t start = 0, end = 0;
      if (!e["span"]["start"].get(start) && !e["span"]["end"].get(end)) {
        s.span = {static_cast<std::size_t>(start), static_cast<std::size_t>(end)};
      }
      r.signals.push_back(std::move(s));
    }
  }
  if (!doc["urls"].get(list)) {
    for (simdjson::dom::element e : list) {
      UrlInfo u;
      if (!e["url"].get(v)) u.url = std::string(v);
      if (!e["reputation"].get(v)) {
        u.reputation = v == "malicious" ? Reputation::kMalicious
                       : v == "clean"   ? Reputation::kClean
                                        : Reputation::kUnknown;
      }
      r.urls.push_back(std::move(u));
    }
  }
  return r;
}

void check_page(const std::shared_ptr<Page>& page) {
  if (page->exchange->request.method != "POST") {
    CheckView view;
    view.remaining = remaining_text(*page, std::nullopt);
    return send_check_page(*page, std::move(view));
  }
  CheckInput input;
  if (!read_form(*page, &input)) return;
  if (page->user()) return check_signed_in(page, std::move(input));
  check_anonymous(page, std::move(input));
}

}  // namespace scamcheck::server::web
