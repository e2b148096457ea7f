// The account side of the check API (CONTRACT §3): the user, plans, the
// current plan and usage, the permission check, and the users' initials
// avatars (/avatars/{initials}.svg) that profile_photo_url points to.
#include <cctype>
#include <cstdio>

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

// The length of the UTF-8 sequence starting with `lead` (1 for ASCII).
std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  return 4;
}

// Up to two initials: the first character of the first two words of the
// name (the email's first character when the name has none), ASCII upper
// case.
std::string initials_of(const User& user) {
  std::string out;
  int taken = 0;
  bool word_start = true;
  const std::string& name = user.name.empty() ? user.email : user.name;
  for (std::size_t i = 0; i < name.size() && taken < 2;) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    const std::size_t n = std::min(sequence_length(c), name.size() - i);
    const bool separator = c == ' ' || c == '-' || c == '.' || c == '_' || c == '@';
    if (separator) {
      word_start = true;
    } else if (word_start && (c >= 0x80 || std::isalnum(c))) {
      std::string ch = name.substr(i, n);
      if (n == 1) ch[0] = static_cast<char>(std::toupper(c));
      out += ch;
      ++taken;
      word_start = false;
    } else {
      word_start = false;
    }
    if (c == '@') break;  // only the local part of an email
    i += n;
  }
  return out.empty() ? std::string("?") : out;
}

std::string percent_encode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

// The daily allowance of the caller as /api/usage and can-perform show it.
struct Allowance {
  UsageTotals totals;
  std::int64_t limit = -1;  // -1: unlimited
  std::int64_t remaining = -1;
  std::string plan_name;
  std::string plan_display_name;
};

Result<Allowance> allowance_of(App& app, const Exchange& ex) {
  const std::int64_t now = unix_now();
  CheckApi& api = *app.check_api();
  Allowance a;
  if (ex.token) {
    const User& user = ex.token->user;
    Result<UsageTotals> totals = app.store().checks().user_usage(user.id, utc_day(now));
    if (!totals.ok()) return totals.status();
    a.totals = *totals;
    Result<QuotaDecision> left = app.quota().peek(user, now);
    if (!left.ok()) return left.status();
    a.limit = left->limit;
    a.remaining = left->remaining;
    a.plan_name = user.plan.name;
    const PlanInfo* plan = api.catalogues().plan(user.plan.name);
    a.plan_display_name = plan ? plan->display_name.get(ex.locale) : user.plan.display_name;
    return a;
  }
  Result<UsageTotals> totals = app.store().checks().client_usage(client_of(app, ex), utc_day(now));
  if (!totals.ok()) return totals.status();
  a.totals = *totals;
  a.limit = api.options().anonymous_checks_per_day;
  a.remaining = std::max<std::int64_t>(0, a.limit - a.totals.today);
  a.plan_name = "anonymous";
  a.plan_display_name = app.catalog().text(ex.locale, "plan.anonymous");
  return a;
}

void write_plan_ref(Writer& w, std::string_view name, std::string_view display_name) {
  key(w, "plan");
  w.StartObject();
  key(w, "name");
  str(w, name);
  key(w, "display_name");
  str(w, display_name);
  w.EndObject();
}

}  // namespace

void handle_user(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const User& user = ex.token->user;
  Result<std::optional<UserProfile>> profile = app.store().checks().user_profile(user.id);
  if (!profile.ok()) return ex.respond(unavailable_response(app.catalog(), ex, profile.status()));
  const UserProfile p = profile->value_or(UserProfile{});
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "id");
  w.Int64(user.id);
  key(w, "name");
  str(w, user.name);
  key(w, "email");
  str(w, user.email);
  key(w, "email_verified_at");
  if (p.email_verified_at) {
    str(w, iso8601(*p.email_verified_at));
  } else {
    w.Null();
  }
  key(w, "profile_photo_url");
  str(w, app.check_api()->options().base_url + "/avatars/" + percent_encode(initials_of(user)) +
             ".svg");
  key(w, "created_at");
  str(w, iso8601(p.created_at));
  key(w, "updated_at");
  str(w, iso8601(p.updated_at));
  w.EndObject();
  ex.respond(json_response(200, finish(buffer)));
}

void handle_plans(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "plans");
  w.StartArray();
  for (const PlanInfo& plan : app.check_api()->catalogues().plans()) {
    if (!plan.active) continue;
    w.StartObject();
    key(w, "id");
    w.Int64(plan.id);
    key(w, "name");
    str(w, plan.name);
    key(w, "display_name");
    str(w, plan.display_name.get(ex.locale));
    key(w, "description");
    str(w, plan.description.get(ex.locale));
    key(w, "price_monthly");
    str(w, plan.price_monthly);
    key(w, "price_yearly");
    str(w, plan.price_yearly);
    key(w, "currency");
    str(w, "EUR");
    key(w, "checks_per_day");
    w.Int64(plan.checks_per_day.value_or(-1));
    key(w, "unlimited_checks");
    w.Bool(!plan.checks_per_day);
    key(w, "metered_price_per_1000");
    if (plan.metered_price_per_1000) {
      str(w, *plan.metered_price_per_1000);
    } else {
      w.Null();
    }
    key(w, "features");
    w.StartArray();
    for (const auto& f : plan.features_in(ex.locale)) str(w, f);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  ex.respond(json_response(200, finish(buffer)));
}

void handle_user_plan(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  Result<Allowance> a = allowance_of(app, ex);
  if (!a.ok()) return ex.respond(unavailable_response(app.catalog(), ex, a.status()));
  const User& user = ex.token->user;
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "plan");
  w.StartObject();
  key(w, "name");
  str(w, a->plan_name);
  key(w, "display_name");
  str(w, a->plan_display_name);
  key(w, "checks_per_day");
  w.Int64(user.plan.checks_per_day.value_or(-1));
  key(w, "unlimited_checks");
  w.Bool(!user.plan.checks_per_day);
  w.EndObject();
  key(w, "usage");
  w.StartObject();
  key(w, "today");
  w.Int64(a->totals.today);
  key(w, "this_month");
  w.Int64(a->totals.this_month);
  w.EndObject();
  key(w, "remaining");
  if (a->limit < 0) {
    w.Null();
  } else {
    w.Int64(a->remaining);
  }
  key(w, "subscription");
  w.StartObject();
  key(w, "is_subscribed");
  w.Bool(user.plan.name != "free");
  key(w, "on_trial");
  w.Bool(false);
  w.EndObject();
  w.EndObject();
  ex.respond(json_response(200, finish(buffer)));
}

void handle_usage(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  Result<Allowance> a = allowance_of(app, ex);
  if (!a.ok()) return ex.respond(unavailable_response(app.catalog(), ex, a.status()));
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "usage");
  w.StartObject();
  key(w, "today");
  w.Int64(a->totals.today);
  key(w, "this_month");
  w.Int64(a->totals.this_month);
  key(w, "all_time");
  w.Int64(a->totals.all_time);
  w.EndObject();
  key(w, "remaining");
  w.Int64(a->remaining);
  key(w, "limit");
  w.Int64(a->limit);
  key(w, "is_unlimited");
  w.Bool(a->limit < 0);
  write_plan_ref(w, a->plan_name, a->plan_display_name);
  w.EndObject();
  ex.respond(json_response(200, finish(buffer)));
}

void handle_can_perform(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const std::string& action = ex.query["action"];
  std::int64_t limit = -1, remaining = -1;
  if (action == "check") {
    Result<Allowance> a = allowance_of(app, ex);
    if (!a.ok()) return ex.respond(unavailable_response(app.catalog(), ex, a.status()));
    limit = a->limit;
    remaining = a->remaining;
  }
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "action");
  str(w, action);
  key(w, "can_perform");
  w.Bool(limit < 0 || remaining > 0);
  key(w, "remaining");
  w.Int64(remaining);
  key(w, "limit");
  w.Int64(limit);
  key(w, "is_unlimited");
  w.Bool(limit < 0);
  w.EndObject();
  ex.respond(json_response(200, finish(buffer)));
}

bool is_avatar_file(std::string_view file) {
  constexpr std::string_view kSuffix = ".svg";
  if (file.size() <= kSuffix.size() || file.substr(file.size() - kSuffix.size()) != kSuffix) {
    return false;
  }
  const std::string_view initials = file.substr(0, file.size() - kSuffix.size());
  if (initials.size() > 8 || !adapters::is_valid_utf8(initials)) return false;
  for (unsigned char c : initials) {
    if (c < 0x80 && !std::isalnum(c) && c != '?') return false;
  }
  return true;
}

void handle_avatar(App&, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const std::string& file = ex.path_params["file"];
  const std::string initials = file.substr(0, file.size() - 4);
  // A stable colour per initials.
  unsigned hash = 2166136261u;
  for (unsigned char c : initials) hash = (hash ^ c) * 16777619u;
  Response r;
  r.content_type = "image/svg+xml";
  r.body =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"128\" height=\"128\" "
      "viewBox=\"0 0 128 128\"><rect width=\"128\" height=\"128\" rx=\"64\" fill=\"hsl(" +
      std::to_string(hash % 360) +
      ",45%,42%)\"/><text x=\"64\" y=\"64\" dy=\".35em\" text-anchor=\"middle\" "
      "font-family=\"sans-serif\" font-size=\"52\" fill=\"#ffffff\">" +
      initials + "</text></svg>";
  r.set_header("Cache-Control", "public, max-age=86400");
  ex.respond(std::move(r));
}

}  // namespace scamcheck::server
