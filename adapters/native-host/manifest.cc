#include "manifest.h"

#include <cstdlib>
#include <fstream>
#include <system_error>

#include "common/report_json.h"

namespace scamcheck::native_host {

std::optional<Browser> parse_browser(std::string_view name) {
  if (name == "chromium") return Browser::kChromium;
  if (name == "chrome") return Browser::kChrome;
  if (name == "firefox") return Browser::kFirefox;
  return std::nullopt;
}

Status check_extension_id(Browser browser, std::string_view id) {
  if (browser != Browser::kFirefox) {
    bool ok = id.size() == 32;
    for (char c : id) ok = ok && c >= 'a' && c <= 'p';
    if (!ok) {
      return Status::invalid_argument("a Chromium extension id is 32 letters a-p, not \"" +
                                      std::string(id) + "\"");
    }
    return {};
  }
  bool ok = !id.empty() && id.size() <= 255;
  for (char c : id) {
    ok = ok && static_cast<unsigned char>(c) > 0x20 && c != '"' && c != '\\' &&
         static_cast<unsigned char>(c) < 0x7f;
  }
  if (!ok || (id.find('@') == std::string_view::npos && id.front() != '{')) {
    return Status::invalid_argument(
        "a Firefox add-on id looks like \"name@example.org\" or \"{uuid}\", not \"" +
        std::string(id) + "\"");
  }
  return {};
}

std::string manifest_json(Browser browser, std::string_view host_path,
                          std::string_view extension_id) {
  rapidjson::StringBuffer buffer;
  adapters::PrettyJsonWriter writer(buffer);
  writer.SetIndent(' ', 2);
  writer.StartObject();
  adapters::write_json_key(writer, "name");
  adapters::write_json_string(writer, kHostName);
  adapters::write_json_key(writer, "description");
  adapters::write_json_string(writer, "ScamCheck: checks messages and links for scams, offline");
  adapters::write_json_key(writer, "path");
  adapters::write_json_string(writer, host_path);
  adapters::write_json_key(writer, "type");
  adapters::write_json_string(writer, "stdio");
  if (browser == Browser::kFirefox) {
    adapters::write_json_key(writer, "allowed_extensions");
    writer.StartArray();
    adapters::write_json_string(writer, extension_id);
  } else {
    adapters::write_json_key(writer, "allowed_origins");
    writer.StartArray();
    adapters::write_json_string(writer, "chrome-extension://" + std::string(extension_id) + "/");
  }
  writer.EndArray();
  writer.EndObject();
  std::string json(buffer.GetString(), buffer.GetSize());
  json += '\n';
  return json;
}

Result<std::filesystem::path> user_manifest_dir(Browser browser) {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    return Status::not_found("HOME is not set; give the directory with --manifest-dir");
  }
  if (browser == Browser::kFirefox) {
    return std::filesystem::path(home) / ".mozilla" / "native-messaging-hosts";
  }
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  std::filesystem::path config = (xdg != nullptr && *xdg == '/')
                                     ? std::filesystem::path(xdg)
                                     : std::filesystem::path(home) / ".config";
  return config / (browser == Browser::kChrome ? "google-chrome" : "chromium") /
         "NativeMessagingHosts";
}

Result<std::filesystem::path> write_manifest(const std::filesystem::path& dir, Browser browser,
                                             std::string_view host_path,
                                             std::string_view extension_id) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return Status::not_found("cannot create " + dir.string() + ": " + error.message());
  }
  const std::filesystem::path file = dir / (std::string(kHostName) + ".json");
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << manifest_json(browser, host_path, extension_id);
  out.close();
  if (!out) return Status::not_found("cannot write " + file.string());
  return file;
}

}  // namespace scamcheck::native_host
