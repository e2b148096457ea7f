// Scoring with the learned model (model/): its features of the analysed
// input, the rules' findings among them; its calibrated probability; and the
// rules' say where the model is known to be weak: a URL on a brand's own
// site, and what the rules alone find clearly suspicious (scoring.json
// "rules_floor").
#ifndef SCAMCHECK_SCORING_MODEL_SCORER_H_
#define SCAMCHECK_SCORING_MODEL_SCORER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "data/data_source.h"
#include "decode/mime.h"
#include "email/email_checks.h"
#include "model/features.h"
#include "model/linear_model.h"
#include "scamcheck/options.h"
#include "scoring/scorer.h"
#include "url/brands.h"

namespace scamcheck::internal {

class ModelScorer {
 public:
  // The model of Options::model_file, or the pack's model/model.bin; none
  // (the rules alone) without Options::use_model. Keeps references to
  // `rules`, `brands` and `html`, which must outlive it.
  static Result<std::unique_ptr<ModelScorer>> load(const Options& options, const DataSource& data,
                                                   const Scorer& rules, const BrandTable& brands,
                                                   const HtmlChecker& html);

  // The score of analysed input (`findings` from the detect stage, of
  // `kind`; `urls` the report's); appends the model's evidence to
  // `findings`. Without a model, the rules' score. Either way a sign with a
  // severity floor keeps the score at or above its floor
  // (Scorer::apply_floor).
  // `normalized`: NormalizedText of a text `content`, when the caller has
  // one (model::add_prose reads it instead of normalizing again).
  // `sender`: what the e-mail stage found out about a mail's sender. The
  // model's evidence does not quote links to a verified sender's site
  // either, and a mail whose links stay at home (MailSender) is scored by
  // the rules.
  Score score(std::string_view content, Kind kind, const ParsedEmail& email,
              const std::vector<UrlInfo>& urls, Findings& findings,
              const NormalizedText* normalized = nullptr, const MailSender& sender = {}) const;

  // The model's features of analysed input (`rules_total` the total of the
  // findings' score), with or without a model: the training tool reads them.
  model::FeatureSet features(std::string_view content, Kind kind, const Findings& findings,
                             double rules_total, const ParsedEmail& email,
                             const NormalizedText* normalized = nullptr) const;
  // The same into `out` (emptied first; its buffers are reused).
  void features(std::string_view content, Kind kind, const Findings& findings, double rules_total,
                const ParsedEmail& email, const NormalizedText* normalized,
                model::FeatureSet& out) const;

 private:
  ModelScorer(const Scorer& rules, const BrandTable& brands, const HtmlChecker& html)
      : rules_(rules), brands_(brands), html_(html) {}

  // Whether `url` is on a known brand's official site other than a platform
  // anyone can publish on (brands.json "open_platform_categories", free
  // hosting).
  bool on_brand_own_site(const UrlInfo& url, const Findings& findings) const;
  // Whether a registrable domain is such a brand's (the brand alone
  // publishes there), free hosting aside.
  bool brand_publishes_alone(std::string_view registrable) const;
  // Whether [start, end) of `location` in the input is part of a link to
  // such a site or to `sender_site` (one of `urls`, with no free_hosting
  // finding on it): the model's evidence does not quote it as looking like
  // phishing.
  bool on_own_link(std::string_view content, Kind kind, const ParsedEmail& email,
                   const std::vector<UrlInfo>& urls, const Findings& findings,
                   std::string_view sender_site, std::string_view location, std::size_t start,
                   std::size_t end) const;

  // score() before the severity floors.
  Score score_unfloored(std::string_view content, Kind kind, const ParsedEmail& email,
                        const std::vector<UrlInfo>& urls, Findings& findings,
                        const NormalizedText* normalized, const MailSender& sender) const;

  std::unique_ptr<model::LinearModel> model_;  // null: scored by the rules alone
  const Scorer& rules_;
  const BrandTable& brands_;
  const HtmlChecker& html_;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_SCORING_MODEL_SCORER_H_
