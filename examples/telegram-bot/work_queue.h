// A small pool of worker threads with a bounded queue: the webhook handler
// puts a job in and answers Telegram at once; analysis, getFile, downloads
// and sendMessage run here, off the I/O thread.
#ifndef SCAMCHECK_EXAMPLES_TELEGRAM_BOT_WORK_QUEUE_H_
#define SCAMCHECK_EXAMPLES_TELEGRAM_BOT_WORK_QUEUE_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace scamcheck::telegram_bot {

class WorkQueue {
 public:
  WorkQueue(unsigned threads, std::size_t capacity) : capacity_(capacity) {
    for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  // Runs the jobs still queued, then joins the workers.
  ~WorkQueue() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // False when the queue is full (the caller answers 503 and Telegram
  // delivers the update again later).
  bool try_push(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_ || jobs_.size() >= capacity_) return false;
      jobs_.push_back(std::move(job));
    }
    ready_.notify_one();
    return true;
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // stopping, and nothing left
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }

  const std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace scamcheck::telegram_bot

#endif  // SCAMCHECK_EXAMPLES_TELEGRAM_BOT_WORK_QUEUE_H_
