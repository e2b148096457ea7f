#include "api/questionnaires.h"

#include <simdjson.h>

#include <algorithm>

#include "embedded_files.h"

namespace scamcheck::server {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

constexpr std::string_view kEn = "en";

// Collects every problem of one file, so all are reported at once.
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  void add(std::string_view what) {
    if (!all_.empty()) all_ += "; ";
    all_ += file_ + ": " + std::string(what);
  }
  std::string& all() { return all_; }
  void merge(Problems& other) {
    if (other.all_.empty()) return;
    if (!all_.empty()) all_ += "; ";
    all_ += other.all_;
  }

 private:
  std::string file_;
  std::string all_;
};

std::string get_string(const object& o, const char* key, Problems& p, std::string_view where) {
  std::string_view value;
  if (o[key].get(value)) {
    p.add(std::string(where) + "." + key + " must be a string");
    return {};
  }
  return std::string(value);
}

std::int64_t get_int(const object& o, const char* key, Problems& p, std::string_view where) {
  std::int64_t value = 0;
  if (o[key].get(value)) p.add(std::string(where) + "." + key + " must be an integer");
  return value;
}

bool get_bool(const object& o, const char* key, bool fallback) {
  bool value = fallback;
  if (o[key].get(value)) return fallback;
  return value;
}

// {"en": "...", "de": "..."} -> LocalText; en required.
LocalText local_text(element e, Problems& p, const std::string& where) {
  LocalText out;
  object texts;
  if (e.get(texts)) {
    p.add(where + " must be an object of texts per locale");
    return out;
  }
  for (auto [locale, value] : texts) {
    std::string_view text;
    if (value.get(text)) {
      p.add(where + "." + std::string(locale) + " must be a string");
    } else {
      out.set(std::string(locale), std::string(text));
    }
  }
  if (!out.has(kEn)) p.add(where + " lacks an en text");
  return out;
}

// texts: {"en": {"title": ..., ...}, ...}: the member `field` of each locale.
LocalText field_per_locale(const object& texts, const char* field, Problems& p,
                           const std::string& where) {
  LocalText out;
  for (auto [locale, value] : texts) {
    object entry;
    std::string_view text;
    if (value.get(entry) || entry[field].get(text)) {
      p.add(where + "." + std::string(locale) + "." + field + " must be a string");
    } else {
      out.set(std::string(locale), std::string(text));
    }
  }
  if (!out.has(kEn)) p.add(where + " lacks an en " + field);
  return out;
}

std::vector<PlanInfo> load_plans(std::string_view json, Problems& p) {
  std::vector<PlanInfo> plans;
  simdjson::dom::parser parser;
  object root;
  simdjson::dom::array list;
  if (parser.parse(json.data(), json.size()).get(root) || root["plans"].get(list)) {
    p.add("not an object with a plans array");
    return plans;
  }
  for (element item : list) {
    object o;
    if (item.get(o)) {
      p.add("a plan is not an object");
      continue;
    }
    PlanInfo plan;
    plan.name = get_string(o, "name", p, "plan");
    const std::string where = "plan " + plan.name;
    plan.id = get_int(o, "id", p, where);
    plan.active = get_bool(o, "active", true);
    plan.price_monthly = get_string(o, "price_monthly", p, where);
    plan.price_yearly = get_string(o, "price_yearly", p, where);
    std::int64_t per_day = 0;
    const bool unlimited = get_bool(o, "unlimited_checks", false);
    if (!unlimited) {
      if (o["checks_per_day"].get(per_day) || per_day < 0) {
        p.add(where + ": checks_per_day must be an integer >= 0 unless unlimited_checks");
      }
      plan.checks_per_day = per_day;
    }
    std::string_view metered;
    if (!o["metered_price_per_1000"].get(metered)) plan.metered_price_per_1000 = metered;
    object texts;
    if (o["texts"].get(texts)) {
      p.add(where + ": texts must be an object");
      continue;
    }
    plan.display_name = field_per_locale(texts, "display_name", p, where + ".texts");
    plan.description = field_per_locale(texts, "description", p, where + ".texts");
    for (auto [locale, value] : texts) {
      simdjson::dom::array features;
      if (value["features"].get(features)) {
        p.add(where + ".texts." + std::string(locale) + ".features must be an array");
        continue;
      }
      auto& out = plan.features[std::string(locale)];
      for (element f : features) {
        std::string_view text;
        if (!f.get(text)) out.emplace_back(text);
      }
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

Questionnaire load_questionnaire(std::string_view json, Problems& p) {
  Questionnaire q;
  simdjson::dom::parser parser;
  object root;
  if (parser.parse(json.data(), json.size()).get(root)) {
    p.add("not a JSON object");
    return q;
  }
  q.slug = get_string(root, "slug", p, "questionnaire");
  q.category = get_string(root, "category", p, "questionnaire");
  q.estimated_duration = static_cast<int>(get_int(root, "estimated_duration", p, "questionnaire"));
  q.active = get_bool(root, "active", true);
  std::int64_t position = 0;
  if (!root["position"].get(position)) q.position = static_cast<int>(position);
  object texts;
  if (root["texts"].get(texts)) {
    p.add("texts must be an object");
  } else {
    q.title = field_per_locale(texts, "title", p, "texts");
    q.description = field_per_locale(texts, "description", p, "texts");
  }
  simdjson::dom::array questions;
  if (root["questions"].get(questions)) p.add("questions must be an array");
  for (element item : questions) {
    object o;
    if (item.get(o)) {
      p.add("a question is not an object");
      continue;
    }
    Question question;
    question.id = get_string(o, "id", p, "question");
    const std::string where = "question " + question.id;
    if (q.question(question.id) != nullptr) p.add(where + " is not unique");
    const std::string type = get_string(o, "type", p, where);
    question.yes_no = type == "yes_no";
    if (type != "yes_no" && type != "single_choice") {
      p.add(where + ": type must be yes_no or single_choice");
    }
    object qtexts;
    if (o["texts"].get(qtexts)) {
      p.add(where + ": texts must be an object");
    } else {
      question.text = field_per_locale(qtexts, "text", p, where + ".texts");
    }
    element advice;
    if (question.yes_no) {
      question.weight = static_cast<int>(get_int(o, "weight", p, where));
      if (!o["advice_if_yes"].get(advice)) {
        question.advice_if_yes = local_text(advice, p, where + ".advice_if_yes");
      }
    } else {
      simdjson::dom::array options;
      if (o["options"].get(options)) p.add(where + ": options must be an array");
      for (element opt : options) {
        object oo;
        if (opt.get(oo)) {
          p.add(where + ": an option is not an object");
          continue;
        }
        QuestionOption option;
        option.value = get_string(oo, "value", p, where + ".option");
        option.weight = static_cast<int>(get_int(oo, "weight", p, where + ".option"));
        element labels;
        if (oo["labels"].get(labels)) {
          p.add(where + ": option " + option.value + " lacks labels");
        } else {
          option.label = local_text(labels, p, where + ".option " + option.value);
        }
        question.options.push_back(std::move(option));
      }
      if (question.options.empty()) p.add(where + " has no options");
      object by_option;
      if (!o["advice_by_option"].get(by_option)) {
        for (auto [value, texts_of_option] : by_option) {
          if (!question.accepts(value)) p.add(where + ": advice for unknown option");
          question.advice_by_option[std::string(value)] =
              local_text(texts_of_option, p, where + ".advice_by_option");
        }
      }
    }
    q.questions.push_back(std::move(question));
  }
  if (q.questions.empty()) p.add("no questions");
  object levels;
  if (root["advice_by_level"].get(levels)) p.add("advice_by_level must be an object");
  for (const char* level : {"safe", "warning", "danger"}) {
    object per_locale;
    if (levels[level].get(per_locale)) {
      p.add(std::string("advice_by_level.") + level + " is missing");
      continue;
    }
    for (auto [locale, list] : per_locale) {
      simdjson::dom::array items;
      if (list.get(items)) continue;
      auto& out = q.advice_by_level[level][std::string(locale)];
      for (element item : items) {
        std::string_view text;
        if (!item.get(text)) out.emplace_back(text);
      }
    }
    if (q.advice_by_level[level].count(std::string(kEn)) == 0) {
      p.add(std::string("advice_by_level.") + level + " lacks en");
    }
  }
  return q;
}

}  // namespace

const std::string& LocalText::get(std::string_view locale) const {
  auto it = texts_.find(locale);
  if (it == texts_.end()) it = texts_.find(kEn);
  static const std::string& kEmpty = *new std::string();
  return it == texts_.end() ? kEmpty : it->second;
}

const std::vector<std::string>& PlanInfo::features_in(std::string_view locale) const {
  auto it = features.find(locale);
  if (it == features.end()) it = features.find(kEn);
  static const std::vector<std::string>& kNone = *new std::vector<std::string>();
  return it == features.end() ? kNone : it->second;
}

bool Question::accepts(std::string_view value) const {
  if (yes_no) return value == "yes" || value == "no";
  return std::any_of(options.begin(), options.end(),
                     [value](const QuestionOption& o) { return o.value == value; });
}

const Question* Questionnaire::question(std::string_view id) const {
  for (const Question& q : questions) {
    if (q.id == id) return &q;
  }
  return nullptr;
}

int score_answers(const Questionnaire& questionnaire,
                  const std::vector<std::pair<std::string, std::string>>& answers) {
  int score = 0;
  for (const auto& [id, value] : answers) {
    const Question* q = questionnaire.question(id);
    if (q == nullptr) continue;
    if (q->yes_no) {
      if (value == "yes") score += q->weight;
    } else {
      for (const QuestionOption& o : q->options) {
        if (o.value == value) score += o.weight;
      }
    }
  }
  return std::clamp(score, 0, 100);
}

std::vector<std::string> advice_for(const Questionnaire& questionnaire,
                                    const std::vector<std::pair<std::string, std::string>>& answers,
                                    std::string_view level, std::string_view locale) {
  std::vector<std::string> out;
  for (const Question& q : questionnaire.questions) {
    auto it = std::find_if(answers.begin(), answers.end(),
                           [&q](const auto& a) { return a.first == q.id; });
    if (it == answers.end()) continue;
    if (q.yes_no && it->second == "yes" && q.advice_if_yes) {
      out.push_back(q.advice_if_yes->get(locale));
    } else if (!q.yes_no) {
      auto advice = q.advice_by_option.find(it->second);
      if (advice != q.advice_by_option.end()) out.push_back(advice->second.get(locale));
    }
  }
  auto by_level = questionnaire.advice_by_level.find(std::string(level));
  if (by_level != questionnaire.advice_by_level.end()) {
    auto texts = by_level->second.find(locale);
    if (texts == by_level->second.end()) texts = by_level->second.find(kEn);
    if (texts != by_level->second.end()) {
      out.insert(out.end(), texts->second.begin(), texts->second.end());
    }
  }
  return out;
}

Result<std::shared_ptr<const CheckCatalogues>> CheckCatalogues::load(std::string_view plans_json) {
  auto out = std::make_shared<CheckCatalogues>();
  Problems all("check catalogues");
  bool have_plans = false;
  for (const EmbeddedFile& file : embedded_files()) {
    Problems p{std::string(file.path)};
    if (file.path == "data/plans.json") {
      out->plans_ = load_plans(plans_json.empty() ? file.content : plans_json, p);
      have_plans = true;
    } else if (file.path.rfind("data/questionnaires/", 0) == 0) {
      Questionnaire q = load_questionnaire(file.content, p);
      if (out->questionnaire(q.slug) != nullptr) p.add("slug " + q.slug + " is not unique");
      out->questionnaires_.push_back(std::move(q));
    }
    all.merge(p);
  }
  if (!have_plans) all.add("data/plans.json is missing");
  if (out->questionnaires_.empty()) all.add("no questionnaire in data/questionnaires/");
  if (!all.all().empty()) return Status::invalid_argument(all.all());
  std::stable_sort(
      out->questionnaires_.begin(), out->questionnaires_.end(),
      [](const Questionnaire& a, const Questionnaire& b) { return a.position < b.position; });
  return std::shared_ptr<const CheckCatalogues>(std::move(out));
}

const PlanInfo* CheckCatalogues::plan(std::string_view name) const {
  for (const PlanInfo& p : plans_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<PlanRow> CheckCatalogues::plan_rows() const {
  std::vector<PlanRow> rows;
  for (const PlanInfo& p : plans_)
    rows.push_back({p.name, p.display_name.get(kEn), p.checks_per_day});
  return rows;
}

std::vector<const Questionnaire*> CheckCatalogues::active_questionnaires() const {
  std::vector<const Questionnaire*> out;
  for (const Questionnaire& q : questionnaires_) {
    if (q.active) out.push_back(&q);
  }
  return out;
}

const Questionnaire* CheckCatalogues::questionnaire(std::string_view slug) const {
  for (const Questionnaire& q : questionnaires_) {
    if (q.slug == slug && q.active) return &q;
  }
  return nullptr;
}

}  // namespace scamcheck::server
