// The analysis jobs of the check API (CONTRACT §3): a pool of worker
// threads that claim due checks from the store with a lease (an atomic
// UPDATE ... WHERE, store.h), so the queue is the checks table itself and
// survives crashes; several processes sharing one database share the work.
//
// A claimed check is either
//   - dispatched to the automation workflow (--workflow-url) when it was
//     created with one and not dispatched yet: the lease is released and
//     the check is due again at its deadline (created + analysis timeout);
//     the workflow's result normally completes it first through the
//     inbound webhook; or
//   - analysed locally with the library (no workflow, the dispatch failed,
//     or the deadline passed without a result), and completed.
// A check whose worker died is claimed again once its lease ran out; after
// kMaxCheckAttempts claims it fails. Workers wake when a check is created
// here and poll the store every kJobPollInterval for the rest (checks of
// other processes, deadlines).
#ifndef SCAMCHECK_ADAPTERS_SERVER_JOBS_CHECK_JOBS_H_
#define SCAMCHECK_ADAPTERS_SERVER_JOBS_CHECK_JOBS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/check_api.h"
#include "jobs/workflow.h"

namespace scamcheck::server {

// Claims of one check before it is given up as failed.
inline constexpr int kMaxCheckAttempts = 5;
// How often an idle worker looks for due checks it was not told about.
inline constexpr std::chrono::milliseconds kJobPollInterval{500};
// Longest wait for the workflow to accept a dispatched check.
inline constexpr std::chrono::milliseconds kMaxDispatchTimeout{10000};

class CheckJobs {
 public:
  CheckJobs(App& app, const CheckApiOptions& options);
  ~CheckJobs();

  // Frees expired leases and starts the workers.
  Status start();
  // Stops the workers and waits for them.
  void stop();
  // A check was created: wake a worker.
  void notify();

  // How long a claim holds: half the analysis timeout, 2-30 s.
  std::chrono::milliseconds lease() const { return lease_; }

 private:
  void worker_loop();
  void run(const CheckRecord& check);
  void analyse_locally(const CheckRecord& check);

  App& app_;
  const CheckApiOptions& options_;
  std::unique_ptr<WorkflowClient> workflow_;
  std::chrono::milliseconds lease_;
  std::string worker_id_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable cv_;
  int pending_ = 0;  // notifications not yet taken by a worker
  std::vector<std::thread> threads_;
};

// The check's result from a library Report (mapping in check_api.h).
CheckResult check_result_from_report(const Report& report);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_JOBS_CHECK_JOBS_H_
