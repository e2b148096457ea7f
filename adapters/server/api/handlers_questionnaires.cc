// The questionnaires of the check API (CONTRACT §3): self-assessments
// from data/questionnaires/ — list, one with its questions, start a
// session, answer (in several calls if wished), complete.
#include <simdjson.h>

#include "api/check_api.h"
#include "api/handlers_check_api.h"
#include "common/report_json.h"
#include "ids.h"

namespace scamcheck::server {
namespace {

using Writer = adapters::JsonWriter;

void key(Writer& w, std::string_view k) { adapters::write_json_key(w, k); }
void str(Writer& w, std::string_view v) { adapters::write_json_string(w, v); }
std::string finish(const rapidjson::StringBuffer& buffer) {
  return std::string(buffer.GetString(), buffer.GetSize());
}

// Most answers in one call.
constexpr std::size_t kMaxAnswersPerCall = 100;

void write_summary(Writer& w, const Questionnaire& q, std::string_view locale) {
  key(w, "slug");
  str(w, q.slug);
  key(w, "title");
  str(w, q.title.get(locale));
  key(w, "description");
  str(w, q.description.get(locale));
  key(w, "category");
  str(w, q.category);
  key(w, "estimated_duration");
  w.Int(q.estimated_duration);
  key(w, "question_count");
  w.Uint64(q.questions.size());
}

// The questionnaire of the path, or null after answering 404.
const Questionnaire* path_questionnaire(App& app, Exchange& ex) {
  const Questionnaire* q = app.check_api()->catalogues().questionnaire(ex.path_params["slug"]);
  if (q == nullptr) ex.respond(message_response(app.catalog(), ex, 404, "questionnaire.not_found"));
  return q;
}

// The session of the path if the caller may use it (same rule as checks),
// with its questionnaire; answers 404 or 503 itself otherwise.
std::optional<QuestionnaireResponse> path_response(App& app, Exchange& ex,
                                                   const Questionnaire** questionnaire) {
  Result<std::optional<QuestionnaireResponse>> found =
      app.store().checks().get_response(to_lower_uuid(ex.path_params["uuid"]));
  if (!found.ok()) {
    ex.respond(unavailable_response(app.catalog(), ex, found.status()));
    return std::nullopt;
  }
  std::optional<QuestionnaireResponse>& r = *found;
  *questionnaire = r ? app.check_api()->catalogues().questionnaire(r->slug) : nullptr;
  if (!r || *questionnaire == nullptr ||
      (r->user_id && (!ex.token || ex.token->user.id != *r->user_id))) {
    ex.respond(message_response(app.catalog(), ex, 404, "questionnaire.response_not_found"));
    return std::nullopt;
  }
  return std::move(r);
}

}  // namespace

bool is_slug(std::string_view value) {
  if (value.empty() || value.size() > 64) return false;
  for (char c : value) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

void handle_list_questionnaires(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "questionnaires");
  w.StartArray();
  for (const Questionnaire* q : app.check_api()->catalogues().active_questionnaires()) {
    w.StartObject();
    write_summary(w, *q, ex.locale);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  ex.respond(json_response(200, finish(buffer)));
}

void handle_get_questionnaire(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const Questionnaire* q = path_questionnaire(app, ex);
  if (q == nullptr) return;
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  write_summary(w, *q, ex.locale);
  key(w, "questions");
  w.StartArray();
  for (const Question& question : q->questions) {
    w.StartObject();
    key(w, "id");
    str(w, question.id);
    key(w, "text");
    str(w, question.text.get(ex.locale));
    key(w, "type");
    str(w, question.yes_no ? "yes_no" : "single_choice");
    key(w, "options");
    w.StartArray();
    if (question.yes_no) {
      for (const char* value : {"yes", "no"}) {
        w.StartObject();
        key(w, "value");
        str(w, value);
        key(w, "label");
        str(w, app.catalog().text(ex.locale, std::string("questionnaire.answer_") + value));
        w.EndObject();
      }
    } else {
      for (const QuestionOption& o : question.options) {
        w.StartObject();
        key(w, "value");
        str(w, o.value);
        key(w, "label");
        str(w, o.label.get(ex.locale));
        w.EndObject();
      }
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  ex.respond(json_response(200, finish(buffer)));
}

void handle_start_questionnaire(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const Questionnaire* q = path_questionnaire(app, ex);
  if (q == nullptr) return;
  // An optional JSON body may name the locale of the advice.
  if (!ex.request.body.empty()) {
    simdjson::dom::parser parser;
    simdjson::dom::object body;
    std::string_view tag;
    if (!parser.parse(ex.request.body).get(body) && !body["locale"].get(tag) && !tag.empty()) {
      ex.locale = app.catalog().resolve(tag);
    }
  }
  QuestionnaireResponse r;
  r.uuid = new_uuid_v4();
  r.slug = q->slug;
  if (ex.token) r.user_id = ex.token->user.id;
  r.locale = ex.locale;
  r.started_at = unix_now();
  if (Status s = app.store().checks().insert_response(r); !s.ok()) {
    return ex.respond(unavailable_response(app.catalog(), ex, s));
  }
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "message");
  str(w, app.catalog().text(ex.locale, "questionnaire.started"));
  key(w, "response");
  w.StartObject();
  key(w, "uuid");
  str(w, r.uuid);
  key(w, "questionnaire");
  str(w, q->slug);
  key(w, "started_at");
  str(w, iso8601(r.started_at));
  key(w, "completed_at");
  w.Null();
  key(w, "total_questions");
  w.Uint64(q->questions.size());
  w.EndObject();
  w.EndObject();
  ex.respond(json_response(201, finish(buffer)));
}

void handle_answer_questionnaire(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const Catalog& catalog = app.catalog();
  const Questionnaire* q = nullptr;
  std::optional<QuestionnaireResponse> response = path_response(app, ex, &q);
  if (!response) return;
  if (response->completed_at) {
    return ex.respond(message_response(catalog, ex, 409, "questionnaire.already_completed"));
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::object body;
  if (parser.parse(ex.request.body).get(root)) {
    return ex.respond(message_response(catalog, ex, 400, "detail.malformed_json"));
  }
  if (root.get(body))
    return ex.respond(message_response(catalog, ex, 400, "detail.body_not_object"));
  FieldErrors errors(catalog, ex.locale);
  simdjson::dom::array list;
  std::vector<std::pair<std::string, std::string>> answers;
  if (body["answers"].get(list) || list.size() == 0 || list.size() > kMaxAnswersPerCall) {
    errors.add("answers", "field.answers_list", {{"max", std::to_string(kMaxAnswersPerCall)}});
  } else {
    std::size_t i = 0;
    for (simdjson::dom::element item : list) {
      const std::string prefix = "answers." + std::to_string(i++);
      std::string_view id;
      simdjson::dom::element value;
      const Question* question = nullptr;
      if (item["question_id"].get(id)) {
        errors.add(prefix + ".question_id", "field.required");
      } else if ((question = q->question(id)) == nullptr) {
        errors.add(prefix + ".question_id", "field.unknown_question");
      }
      std::string answer;
      std::string_view text;
      bool flag = false;
      if (item["value"].get(value)) {
        errors.add(prefix + ".value", "field.required");
        continue;
      }
      if (!value.get(text)) {
        answer = std::string(text);
      } else if (!value.get(flag)) {
        answer = flag ? "yes" : "no";
      }
      if (question == nullptr) continue;
      if (!question->accepts(answer)) {
        std::string values;
        if (question->yes_no) {
          values = "yes, no";
        } else {
          for (const QuestionOption& o : question->options)
            values += (values.empty() ? "" : ", ") + o.value;
        }
        errors.add(prefix + ".value", "field.one_of", {{"values", values}});
        continue;
      }
      answers.emplace_back(question->id, answer);
    }
  }
  if (!errors.empty()) return ex.respond(validation_response(catalog, ex, errors));
  Result<bool> saved = app.store().checks().save_answers(response->uuid, answers);
  if (!saved.ok()) return ex.respond(unavailable_response(catalog, ex, saved.status()));
  if (!*saved)
    return ex.respond(message_response(catalog, ex, 409, "questionnaire.already_completed"));
  // Count what is answered now, the earlier calls included.
  std::vector<std::string> answered;
  for (const auto& [id, v] : response->answers) answered.push_back(id);
  for (const auto& [id, v] : answers) {
    if (std::find(answered.begin(), answered.end(), id) == answered.end()) answered.push_back(id);
  }
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "answered");
  w.Uint64(answered.size());
  key(w, "remaining");
  w.Uint64(q->questions.size() - std::min(q->questions.size(), answered.size()));
  w.EndObject();
  ex.respond(json_response(200, finish(buffer)));
}

void handle_complete_questionnaire(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const Catalog& catalog = app.catalog();
  const Questionnaire* q = nullptr;
  std::optional<QuestionnaireResponse> response = path_response(app, ex, &q);
  if (!response) return;
  if (response->result_json) return ex.respond(json_response(200, *response->result_json));
  std::string missing;
  for (const Question& question : q->questions) {
    const bool answered =
        std::any_of(response->answers.begin(), response->answers.end(),
                    [&question](const auto& a) { return a.first == question.id; });
    if (!answered) missing += (missing.empty() ? "" : ", ") + question.id;
  }
  if (!missing.empty()) {
    FieldErrors errors(catalog, ex.locale);
    errors.add("answers", "field.unanswered", {{"questions", missing}});
    return ex.respond(validation_response(catalog, ex, errors));
  }
  const int score = score_answers(*q, response->answers);
  const std::string level(risk_level_for_score(score));
  const std::string& locale = response->locale;
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "risk_level");
  str(w, level);
  key(w, "risk_score");
  w.Int(score);
  key(w, "risk_text");
  str(w, catalog.text(locale, risk_text_key(level)));
  key(w, "risk_color");
  str(w, risk_color(level));
  key(w, "advice");
  w.StartArray();
  for (const auto& a : advice_for(*q, response->answers, level, locale)) str(w, a);
  w.EndArray();
  w.EndObject();
  std::string result = finish(buffer);
  Result<bool> stored = app.store().checks().complete_response(response->uuid, result, unix_now());
  if (!stored.ok()) return ex.respond(unavailable_response(catalog, ex, stored.status()));
  if (!*stored) {
    // Completed by a concurrent call: answer with what it stored.
    const Questionnaire* again = nullptr;
    std::optional<QuestionnaireResponse> now = path_response(app, ex, &again);
    if (!now) return;
    if (now->result_json) result = *now->result_json;
  }
  ex.respond(json_response(200, std::move(result)));
}

}  // namespace scamcheck::server
