#include "data/data_source.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "data/embedded_data.h"

namespace scamcheck::internal {

Result<std::string> DataSource::read(std::string_view relative_path) const {
  if (dir_.empty()) {
    for (const EmbeddedFile& f : embedded_files()) {
      if (f.path == relative_path) return std::string(f.data);
    }
    return Status::not_found(describe(relative_path) + ": no such file in the embedded data pack");
  }
  std::ifstream in(describe(relative_path), std::ios::binary);
  if (!in) return Status::not_found(describe(relative_path) + ": cannot open");
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

Result<std::vector<std::string>> DataSource::list(std::string_view relative_dir) const {
  std::vector<std::string> paths;
  const std::string prefix = std::string(relative_dir) + "/";
  if (dir_.empty()) {
    for (const EmbeddedFile& f : embedded_files()) {
      if (f.path.substr(0, prefix.size()) == prefix &&
          f.path.find('/', prefix.size()) == std::string_view::npos) {
        paths.emplace_back(f.path);
      }
    }
  } else {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(describe(relative_dir), ec)) {
      if (entry.is_regular_file()) paths.push_back(prefix + entry.path().filename().string());
    }
    if (ec) return Status::not_found(describe(relative_dir) + ": " + ec.message());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::string DataSource::describe(std::string_view relative_path) const {
  if (dir_.empty()) return "embedded:" + std::string(relative_path);
  return dir_ + "/" + std::string(relative_path);
}

std::vector<std::string> parse_list(std::string_view text) {
  std::vector<std::string> entries;
  while (!text.empty()) {
    std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    if (std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
      line.remove_suffix(1);
    if (!line.empty()) entries.emplace_back(line);
  }
  return entries;
}

}  // namespace scamcheck::internal
