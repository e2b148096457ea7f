#include "decode/ocr_pool.h"

#include <leptonica/allheaders.h>
#include <malloc.h>
#include <sys/stat.h>
#include <tesseract/baseapi.h>
#include <tesseract/ocrclass.h>

#include <algorithm>
#include <climits>
#include <thread>

namespace scamcheck::internal {
namespace {

// The resolution reported to Tesseract. Screenshots carry none (or 72 dpi,
// which would make Tesseract rescale): 300 dpi is what its noise and size
// thresholds are tuned for.
constexpr int kSourcePpi = 300;

bool file_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

void OcrPool::EngineDeleter::operator()(tesseract::TessBaseAPI* api) const {
  api->End();
  delete api;
}

OcrPool::OcrPool(std::string tessdata_dir, std::string languages, std::size_t size,
                 std::chrono::milliseconds idle_release)
    : tessdata_dir_(std::move(tessdata_dir)),
      languages_(std::move(languages)),
      size_(size ? size : std::max(1u, std::thread::hardware_concurrency())),
      idle_release_(idle_release) {
  // Tesseract keeps the dictionaries of every engine in a process-wide
  // cache, a function-local static made on first use. Making it now, before
  // the Analyzer that owns this pool is complete, means a static Analyzer
  // is destroyed (and its engines ended) before that cache is.
  tesseract::TessBaseAPI::ClearPersistentCache();
  if (languages_.empty()) {
    status_ = Status::unavailable("no OCR language configured (Options::ocr_languages)");
    return;
  }
  std::size_t start = 0;
  while (start <= languages_.size()) {
    std::size_t end = languages_.find('+', start);
    if (end == std::string::npos) end = languages_.size();
    const std::string path =
        tessdata_dir_ + "/" + languages_.substr(start, end - start) + ".traineddata";
    if (!file_exists(path)) {
      status_ = Status::unavailable("OCR model " + path +
                                    " not found (apt-get install tesseract-ocr-eng "
                                    "tesseract-ocr-deu, or set Options::tessdata_dir)");
      return;
    }
    start = end + 1;
  }
}

OcrPool::~OcrPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  reaper_wake_.notify_all();
  if (reaper_.joinable()) reaper_.join();
  idle_.clear();  // ends every engine (none is lent: the Analyzer is going)
  // The dictionaries the ended engines shared stay cached otherwise.
  tesseract::TessBaseAPI::ClearPersistentCache();
}

Result<OcrPool::Engine> OcrPool::new_engine() const {
  Engine api(new tesseract::TessBaseAPI());
  // Tesseract's diagnostics would go to stderr of the host process.
  api->SetVariable("debug_file", "/dev/null");
  if (api->Init(tessdata_dir_.c_str(), languages_.c_str(), tesseract::OEM_LSTM_ONLY) != 0) {
    return Status::unavailable("Tesseract could not load '" + languages_ + "' from " +
                               tessdata_dir_);
  }
  // Chat screenshots are blocks in two columns (left and right bubbles)
  // with sparse lines: full automatic layout analysis.
  api->SetPageSegMode(tesseract::PSM_AUTO);
  // decode/image.h already normalises polarity; a second, inverted
  // recognition of weak lines doubles the time for nothing.
  api->SetVariable("tessedit_do_invert", "0");
  return api;
}

Result<OcrPool::Engine> OcrPool::checkout(const DecodeLimits& limits) {
  std::unique_lock lock(mu_);
  while (idle_.empty() && created_ >= size_) {
    if (freed_.wait_until(lock, limits.deadline) == std::cv_status::timeout && idle_.empty() &&
        created_ >= size_) {
      return Status::deadline_exceeded("no OCR engine became free in time");
    }
  }
  if (!idle_.empty()) {
    Engine e = std::move(idle_.back());
    idle_.pop_back();
    return e;
  }
  ++created_;
  if (!reaper_.joinable()) reaper_ = std::thread([this] { release_idle_engines(); });
  lock.unlock();
  Result<Engine> engine = new_engine();  // loads the models: slow, unlocked
  if (!engine.ok()) {
    lock.lock();
    --created_;
    freed_.notify_one();
  }
  return engine;
}

void OcrPool::give_back(Engine engine) {
  {
    std::lock_guard lock(mu_);
    idle_.push_back(std::move(engine));
    last_used_ = std::chrono::steady_clock::now();
  }
  freed_.notify_one();
  reaper_wake_.notify_one();
}

std::size_t OcrPool::engines_alive() {
  std::lock_guard lock(mu_);
  return created_;
}

void OcrPool::release_idle_engines() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    if (idle_.empty()) {  // nothing to end until an engine comes back
      reaper_wake_.wait(lock);
      continue;
    }
    const auto due = last_used_ + idle_release_;
    if (std::chrono::steady_clock::now() < due) {
      reaper_wake_.wait_until(lock, due);
      continue;
    }
    // No recognition for idle_release: end the idle engines (a lent one
    // comes back later with a fresh last_used_).
    std::vector<Engine> ended = std::move(idle_);
    idle_.clear();
    created_ -= ended.size();
    freed_.notify_all();  // room for new engines
    lock.unlock();
    ended.clear();  // End() each, unlocked: recognitions go on meanwhile
    // The dictionaries no engine uses any more, and the freed heap.
    tesseract::TessBaseAPI::ClearPersistentCache();
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    lock.lock();
  }
}

Result<std::string> OcrPool::recognize(Pix* image, const DecodeLimits& limits) {
  if (!status_.ok()) return status_;
  if (limits.expired()) return Status::deadline_exceeded("OCR time budget exhausted");
  Result<Engine> engine = checkout(limits);
  if (!engine.ok()) return engine.status();
  tesseract::TessBaseAPI& api = **engine;

  api.SetImage(image);
  api.SetSourceResolution(kSourcePpi);
  tesseract::ETEXT_DESC monitor;
  monitor.set_deadline_msecs(
      static_cast<int32_t>(std::min<long long>(limits.remaining_ms(), INT32_MAX)));
  const int rc = api.Recognize(&monitor);
  std::string text;
  Status status;
  if (rc != 0 || limits.expired()) {
    status = limits.expired()
                 ? Status::deadline_exceeded("OCR did not finish within the time budget")
                 : Status::internal("Tesseract failed to recognise the image");
  } else if (char* utf8 = api.GetUTF8Text()) {
    text = utf8;
    delete[] utf8;
  }
  api.Clear();  // drops the image and results; keeps the loaded models
  give_back(std::move(engine).value());
  if (!status.ok()) return status;
  return text;
}

}  // namespace scamcheck::internal
