// The data catalogues of the check API (CONTRACT §3), compiled in from
// data/plans.json and data/questionnaires/*.json and checked at start:
// plans with their prices and localized texts, and self-assessment
// questionnaires with their questions, scoring and localized advice.
// Immutable after load(); thread-safe.
#ifndef SCAMCHECK_ADAPTERS_SERVER_API_QUESTIONNAIRES_H_
#define SCAMCHECK_ADAPTERS_SERVER_API_QUESTIONNAIRES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scamcheck/status.h"
#include "storage/store.h"

namespace scamcheck::server {

// A text per catalog locale; get() falls back to en.
class LocalText {
 public:
  void set(std::string locale, std::string text) { texts_[std::move(locale)] = std::move(text); }
  bool has(std::string_view locale) const { return texts_.find(locale) != texts_.end(); }
  const std::string& get(std::string_view locale) const;

 private:
  std::map<std::string, std::string, std::less<>> texts_;
};

struct PlanInfo {
  std::int64_t id = 0;
  std::string name;
  bool active = true;
  std::string price_monthly;  // "4.99"
  std::string price_yearly;
  std::optional<std::int64_t> checks_per_day;  // nullopt: unlimited
  std::optional<std::string> metered_price_per_1000;
  LocalText display_name;
  LocalText description;
  std::map<std::string, std::vector<std::string>, std::less<>> features;  // per locale
  const std::vector<std::string>& features_in(std::string_view locale) const;
};

struct QuestionOption {
  std::string value;
  int weight = 0;
  LocalText label;
};

struct Question {
  std::string id;
  bool yes_no = true;  // else single_choice
  int weight = 0;      // yes_no: points of a yes
  LocalText text;
  std::vector<QuestionOption> options;  // single_choice
  std::optional<LocalText> advice_if_yes;
  std::map<std::string, LocalText> advice_by_option;
  // True when `value` is an allowed answer ("yes"/"no" or an option value).
  bool accepts(std::string_view value) const;
};

struct Questionnaire {
  std::string slug;
  std::string category;
  int estimated_duration = 0;  // minutes
  bool active = true;
  int position = 0;
  LocalText title;
  LocalText description;
  std::vector<Question> questions;
  // level ("safe", "warning", "danger") -> locale -> advice
  std::map<std::string, std::map<std::string, std::vector<std::string>, std::less<>>>
      advice_by_level;

  const Question* question(std::string_view id) const;
};

// The risk score (0-100) of a completed questionnaire: the sum of the
// points of its answers (question id -> value), at most 100.
int score_answers(const Questionnaire& questionnaire,
                  const std::vector<std::pair<std::string, std::string>>& answers);
// The advice in `locale` for these answers: per answer in question order,
// then the general advice of `level` ("safe", "warning", "danger").
std::vector<std::string> advice_for(const Questionnaire& questionnaire,
                                    const std::vector<std::pair<std::string, std::string>>& answers,
                                    std::string_view level, std::string_view locale);

class CheckCatalogues {
 public:
  // Loads and checks the embedded plans and questionnaires; every problem
  // is reported at once, with its file. `plans_json` (--plans), when not
  // empty, replaces the embedded data/plans.json.
  static Result<std::shared_ptr<const CheckCatalogues>> load(std::string_view plans_json = {});

  const std::vector<PlanInfo>& plans() const { return plans_; }
  const PlanInfo* plan(std::string_view name) const;
  // The plans as the store's plans table keeps them.
  std::vector<PlanRow> plan_rows() const;
  // Active questionnaires, in list order.
  std::vector<const Questionnaire*> active_questionnaires() const;
  // An active questionnaire by slug, or null.
  const Questionnaire* questionnaire(std::string_view slug) const;

 private:
  std::vector<PlanInfo> plans_;
  std::vector<Questionnaire> questionnaires_;
};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_API_QUESTIONNAIRES_H_
