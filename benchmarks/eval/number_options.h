// Number options for the CLI11 parsers of scamcheck-eval and scamcheck-train,
// read as these tools have always read them: whole numbers as plain decimal
// (CLI11 alone takes 0x1f as hex and 010 as octal), real numbers with strtod
// (CLI11 reads through long double, which rounds about one decimal in 10,000
// differently in the last bit, and the trained model must not depend on it).
#ifndef SCAMCHECK_BENCHMARKS_EVAL_NUMBER_OPTIONS_H_
#define SCAMCHECK_BENCHMARKS_EVAL_NUMBER_OPTIONS_H_

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>

namespace scamcheck::bench {

// Digits only. Leading zeros are dropped, so that CLI11 reads the rest as
// decimal: add it with Option::transform (which runs before every check).
inline CLI::Validator decimal() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
          return "not a whole number: " + value;
        }
        value.erase(0, std::min(value.find_first_not_of('0'), value.size() - 1));
        return {};
      },
      "");
}

// The strtod() value of a real-number option; `valid` says which values
// are accepted, `what` is the error message otherwise.
inline CLI::Validator real(std::function<bool(double)> valid, std::string what) {
  return CLI::Validator(
      [valid = std::move(valid), what = std::move(what)](std::string& value) -> std::string {
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !valid(number)) return what + ": " + value;
        return {};
      },
      "");
}

// Adds a real-number option that stores strtod(value) in *target.
inline CLI::Option* add_real_option(CLI::App& app, const std::string& name, double* target,
                                    const std::string& help, CLI::Validator validator) {
  return app
      .add_option_function<std::string>(
          name,
          [target](const std::string& value) { *target = std::strtod(value.c_str(), nullptr); },
          help)
      ->type_name("X")
      ->check(std::move(validator));
}

}  // namespace scamcheck::bench

#endif  // SCAMCHECK_BENCHMARKS_EVAL_NUMBER_OPTIONS_H_
