// OcrPool: a bounded set of Tesseract engines shared by every thread of an
// Analyzer. Each engine is initialised once (models loaded), on first need,
// and reused for later recognitions; a recognition borrows one engine and
// waits while all are busy, so at most `size` recognitions run at once.
// Engines unused for `idle_release` are ended (their models, tens of MB,
// freed) by a thread of the pool, started with the first engine; the next
// recognition loads them again.
#ifndef SCAMCHECK_DECODE_OCR_POOL_H_
#define SCAMCHECK_DECODE_OCR_POOL_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "decode/file_type.h"
#include "scamcheck/status.h"

struct Pix;
namespace tesseract {
class TessBaseAPI;
}

namespace scamcheck::internal {

// Thread-safe. Neither copyable nor movable (threads wait on its members).
class OcrPool {
 public:
  // `tessdata_dir` holds <lang>.traineddata for each of the '+'-separated
  // `languages`; `size` 0 means one engine per hardware thread. Nothing is
  // loaded here: a missing model shows in status() and in recognize().
  OcrPool(std::string tessdata_dir, std::string languages, std::size_t size,
          std::chrono::milliseconds idle_release = kIdleRelease);
  ~OcrPool();
  OcrPool(const OcrPool&) = delete;
  OcrPool& operator=(const OcrPool&) = delete;

  // OK when every model file exists, else kUnavailable naming the missing one.
  const Status& status() const { return status_; }

  // Recognises the text of `image` (8 bits per pixel, dark text on a light
  // background, as decode/image.h prepares it): lines separated by '\n',
  // blocks by a blank line. kUnavailable without models, kDeadlineExceeded
  // past limits.deadline (waiting for an engine included).
  Result<std::string> recognize(Pix* image, const DecodeLimits& limits);

  // Engines alive (idle or lent): 0 before the first recognition and after
  // an idle release.
  std::size_t engines_alive();

  // How long engines may sit unused before they are ended.
  static constexpr std::chrono::milliseconds kIdleRelease{60000};

 private:
  struct EngineDeleter {
    void operator()(tesseract::TessBaseAPI* api) const;
  };
  using Engine = std::unique_ptr<tesseract::TessBaseAPI, EngineDeleter>;

  Result<Engine> checkout(const DecodeLimits& limits);
  void give_back(Engine engine);
  Result<Engine> new_engine() const;
  void release_idle_engines();  // the reaper thread

  const std::string tessdata_dir_;
  const std::string languages_;
  const std::size_t size_;
  const std::chrono::milliseconds idle_release_;
  Status status_;

  std::mutex mu_;
  std::condition_variable freed_;
  std::vector<Engine> idle_;                         // guarded by mu_
  std::size_t created_ = 0;                          // engines alive, idle or lent; guarded by mu_
  std::chrono::steady_clock::time_point last_used_;  // last give_back; guarded by mu_
  bool stopping_ = false;                            // guarded by mu_
  std::condition_variable reaper_wake_;
  std::thread reaper_;  // started with the first engine
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_OCR_POOL_H_
