// Native messaging host manifests: the JSON file that tells a browser which
// program to start for the host name kHostName and which extensions may
// talk to it.
#ifndef SCAMCHECK_ADAPTERS_NATIVE_HOST_MANIFEST_H_
#define SCAMCHECK_ADAPTERS_NATIVE_HOST_MANIFEST_H_

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "scamcheck/status.h"

namespace scamcheck::native_host {

// The host name extensions pass to runtime.connectNative/sendNativeMessage;
// the manifest file is "<kHostName>.json".
inline constexpr char kHostName[] = "org.scamcheck.native_host";

enum class Browser { kChromium, kChrome, kFirefox };

// "chromium", "chrome" or "firefox".
std::optional<Browser> parse_browser(std::string_view name);

// OK when `id` is an extension id the browser's manifest accepts: 32
// letters a-p for Chromium and Chrome; for Firefox an add-on id
// ("name@domain" or "{uuid}").
Status check_extension_id(Browser browser, std::string_view id);

// The manifest: name, description, `path` (absolute path of the host
// program), `type: "stdio"`, and `allowed_origins:
// ["chrome-extension://<id>/"]` (Chromium, Chrome) or `allowed_extensions:
// ["<id>"]` (Firefox).
std::string manifest_json(Browser browser, std::string_view host_path,
                          std::string_view extension_id);

// Where the browser looks for a user's host manifests:
// $XDG_CONFIG_HOME (default ~/.config)/chromium/NativeMessagingHosts,
// .../google-chrome/NativeMessagingHosts, ~/.mozilla/native-messaging-hosts.
Result<std::filesystem::path> user_manifest_dir(Browser browser);

// Writes manifest_json() to <dir>/<kHostName>.json (creating `dir`) and
// returns the file's path.
Result<std::filesystem::path> write_manifest(const std::filesystem::path& dir, Browser browser,
                                             std::string_view host_path,
                                             std::string_view extension_id);

}  // namespace scamcheck::native_host

#endif  // SCAMCHECK_ADAPTERS_NATIVE_HOST_MANIFEST_H_
