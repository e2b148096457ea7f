// Image and document scans: the multipart/form-data form of
// POST /api/v1/scan (CONTRACT §2) and the bounded pool it runs on.
//
// OCR of one screenshot takes 0.2-0.6 s of CPU, so these scans never run on
// an I/O thread. The I/O thread that read the request only queues it; a
// worker parses the form (GMime, multipart.h), applies the daily allowance,
// calls the library and hands the report to the store, whose callback
// answers on the connection's strand, as for text scans. When
// `queue_limit` scans already wait for a worker, the request is answered
// 503 with Retry-After at once instead of piling up.
#ifndef SCAMCHECK_ADAPTERS_SERVER_API_FILE_SCANS_H_
#define SCAMCHECK_ADAPTERS_SERVER_API_FILE_SCANS_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace scamcheck::server {

class App;
struct Exchange;

// A fixed set of worker threads with a bounded queue. Thread-safe. Neither
// copyable nor movable: the workers hold `this`.
class FileScanPool {
 public:
  // Starts `threads` workers (REQUIRES: > 0); at most `queue_limit` jobs
  // wait for one (jobs being run do not count).
  FileScanPool(unsigned threads, std::size_t queue_limit);
  ~FileScanPool();  // join()
  FileScanPool(const FileScanPool&) = delete;
  FileScanPool& operator=(const FileScanPool&) = delete;

  // Queues `job`; false (and `job` is dropped) when the queue is full or
  // the pool has been joined.
  bool try_post(std::function<void()> job);
  // Runs the jobs already queued, then stops the workers. Idempotent.
  void join();

  unsigned threads() const { return static_cast<unsigned>(workers_.size()); }
  std::size_t queue_limit() const { return queue_limit_; }

 private:
  void work();

  std::size_t queue_limit_;
  std::mutex mutex_;  // guards the members below
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

// Runs `run(app, exchange)` on `pool` (a throw answers 500). When the pool
// is null or its queue is full, answers 503 with `busy_detail` (a catalog
// key) and Retry-After instead.
void post_exchange(FileScanPool* pool, App& app, const std::shared_ptr<Exchange>& exchange,
                   void (*run)(App&, const std::shared_ptr<Exchange>&),
                   std::string_view busy_detail);

// POST /api/v1/scan with a multipart/form-data body: fields `file`
// (required), `kind` (image | document; else sniffed from the file's magic
// bytes), `locale`, `source_app`. Called by handle_scan() on the I/O thread;
// answers through the exchange from a worker or the store's callback.
void handle_scan_upload(App& app, const std::shared_ptr<Exchange>& exchange);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_API_FILE_SCANS_H_
