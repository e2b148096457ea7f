// The data pack compiled into the library (see cmake/EmbedData.cmake).
#ifndef SCAMCHECK_DATA_EMBEDDED_DATA_H_
#define SCAMCHECK_DATA_EMBEDDED_DATA_H_

#include <span>
#include <string_view>

namespace scamcheck::internal {

struct EmbeddedFile {
  std::string_view path;  // relative to libscamcheck/data, '/'-separated
  std::string_view data;
};

std::span<const EmbeddedFile> embedded_files();

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DATA_EMBEDDED_DATA_H_
