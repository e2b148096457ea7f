// libscamcheck: tells whether a message, link or email is a scam, and shows
// the exact words, links and headers that made it think so.
//
// A short tour:
//
//   #include <scamcheck/scamcheck.h>
//
//   // Build once (loads and validates the rules, brand list and catalogs).
//   auto analyzer = scamcheck::Analyzer::create();
//   if (!analyzer.ok()) {
//     std::cerr << analyzer.status().to_string() << "\n";
//     return 1;
//   }
//
//   // Analyze from any thread; the analyzer is immutable.
//   auto report = (*analyzer)->analyze(
//       "Your parcel is on hold. Pay 1.99 EUR at https://dhl-track.example.top",
//       scamcheck::Kind::kText, "en");
//   if (report.ok()) {
//     std::cout << scamcheck::to_string(report->verdict) << " "
//               << report->risk_score << "\n";      // e.g. "danger 86"
//     for (const auto& s : report->signals)           // the reasons, each
//       std::cout << s.key << ": " << s.evidence << "\n";  // a verbatim quote
//   }
//
// Every Signal's evidence is the exact input text at its span, so a caller
// can highlight it. Without any network access or AI provider the analysis
// is complete; such reports say model_used == "heuristic-fallback".
#ifndef SCAMCHECK_SCAMCHECK_H_
#define SCAMCHECK_SCAMCHECK_H_

#include "scamcheck/analyzer.h"
#include "scamcheck/options.h"
#include "scamcheck/providers.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"
#include "scamcheck/version.h"

#endif  // SCAMCHECK_SCAMCHECK_H_
