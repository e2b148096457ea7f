#include "http/framing.h"

#include "common/ascii.h"

namespace scamcheck::server {
namespace {

bool starts_with_icase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && ascii_iequals(text.substr(0, prefix.size()), prefix);
}

// reg-name, IPv4 or [IPv6] host, optional :port (RFC 3986 §3.2.2), without
// userinfo.
bool valid_authority(std::string_view authority) {
  if (authority.empty()) return false;
  for (char c : authority) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("-._~%!$&'()*+,;=:[]").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return authority.front() != ':';
}

void split_path_query(std::string_view rest, std::string* path, std::string* query) {
  const std::size_t question = rest.find('?');
  *path = std::string(rest.substr(0, question));
  *query =
      question == std::string_view::npos ? std::string() : std::string(rest.substr(question + 1));
}

}  // namespace

bool split_request_target(std::string_view target, std::string* path, std::string* query) {
  if (target.find('#') != std::string_view::npos) return false;  // no fragment in a target
  if (!target.empty() && target.front() == '/') {
    split_path_query(target, path, query);
    return true;
  }
  std::string_view rest;
  if (starts_with_icase(target, "http://")) {
    rest = target.substr(7);
  } else if (starts_with_icase(target, "https://")) {
    rest = target.substr(8);
  } else {
    return false;
  }
  const std::size_t end = std::min(rest.find_first_of("/?"), rest.size());
  if (!valid_authority(rest.substr(0, end))) return false;
  rest.remove_prefix(end);
  split_path_query(rest, path, query);
  if (path->empty()) path->push_back('/');
  return true;
}

std::string_view framing_problem(const HeaderList& headers, unsigned minor) {
  int transfer_encodings = 0, content_lengths = 0, hosts = 0, authorizations = 0;
  for (const auto& [name, value] : headers) {
    if (ascii_iequals(name, "Transfer-Encoding")) {
      ++transfer_encodings;
      if (!ascii_iequals(adapters::trim(value, adapters::kHttpSpace), "chunked")) {
        return "transfer-encoding other than chunked";
      }
    } else if (ascii_iequals(name, "Content-Length")) {
      ++content_lengths;
      const std::string_view digits = adapters::trim(value, adapters::kHttpSpace);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
        return "bad content-length";
      }
    } else if (ascii_iequals(name, "Host")) {
      ++hosts;
    } else if (ascii_iequals(name, "Authorization")) {
      ++authorizations;
    }
  }
  if (transfer_encodings > 1) return "transfer-encoding other than chunked";
  if (transfer_encodings > 0 && minor == 0) return "transfer-encoding in HTTP/1.0";
  if (transfer_encodings > 0 && content_lengths > 0) {
    return "content-length with transfer-encoding";
  }
  if (content_lengths > 1) return "bad content-length";
  if (hosts > 1 || (hosts == 0 && minor >= 1)) return "host";
  if (authorizations > 1) return "authorization repeated";
  return {};
}

}  // namespace scamcheck::server
