// The optional automation workflow of the check API (CONTRACT §3): a new
// check is POSTed to --workflow-url as
//   {check_uuid, type, content, url, locale, callback_url}
// (content_encoding "base64" is added when the content is not UTF-8), and
// the workflow answers later by POSTing the result to callback_url, which
// is handled by POST /api/webhooks/analysis-result/{secret}.
#ifndef SCAMCHECK_ADAPTERS_SERVER_JOBS_WORKFLOW_H_
#define SCAMCHECK_ADAPTERS_SERVER_JOBS_WORKFLOW_H_

#include <atomic>
#include <chrono>
#include <string>

#include "scamcheck/status.h"
#include "storage/store.h"

namespace scamcheck::server {

// Sends checks to the workflow with libcurl. Thread-safe.
class WorkflowClient {
 public:
  explicit WorkflowClient(std::string url);

  const std::string& url() const { return url_; }
  // POSTs the check; OK when the workflow answered 2xx within `timeout`.
  // Gives up early once `*stop` becomes true. The callback URL (with its
  // secret) is never logged.
  Status dispatch(const CheckRecord& check, const std::string& callback_url,
                  std::chrono::milliseconds timeout, const std::atomic<bool>* stop) const;

 private:
  std::string url_;
};

// A new inbound-webhook secret: 43 base64url characters (256 random bits).
std::string new_webhook_secret();

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_JOBS_WORKFLOW_H_
