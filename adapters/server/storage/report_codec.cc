#include "storage/report_codec.h"

#include <zstd.h>

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>

#include "embedded_files.h"

namespace scamcheck::server {
namespace {

// Fast and still 5-10x on reports: with the dictionary, level 1 takes about
// 2 µs for an SMS report (its tables in the cache), expanding under 1 µs.
constexpr int kLevel = 1;
// The newest dictionary: what compact_report() uses.
constexpr unsigned kNewestDictionary = 1;
// A frame claiming more than this is refused, not expanded.
constexpr unsigned long long kMaxReportBytes = 64ull << 20;

struct Dictionary {
  ZSTD_CDict* compress = nullptr;  // only the newest
  ZSTD_DDict* expand = nullptr;
};

// The embedded dictionaries (data/report_dictionary_N.zdict), made once,
// on first use (not at start: an idle server does not pay for them). A
// frame names its dictionary by ID, so file N must carry ID N; one that
// does not is left out (reports are then stored as JSON text).
const std::array<Dictionary, kNewestDictionary>& dictionaries() {
  static const std::array<Dictionary, kNewestDictionary> all = [] {
    std::array<Dictionary, kNewestDictionary> out{};
    for (unsigned id = 1; id <= kNewestDictionary; ++id) {
      const std::string path = "data/report_dictionary_" + std::to_string(id) + ".zdict";
      for (const EmbeddedFile& file : embedded_files()) {
        if (file.path != path ||
            ZSTD_getDictID_fromDict(file.content.data(), file.content.size()) != id) {
          continue;
        }
        Dictionary& d = out[id - 1];
        d.expand = ZSTD_createDDict(file.content.data(), file.content.size());
        if (id == kNewestDictionary) {
          d.compress = ZSTD_createCDict(file.content.data(), file.content.size(), kLevel);
        }
      }
    }
    return out;
  }();
  return all;
}

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

}  // namespace

std::string compact_report(std::string_view json) {
  const Dictionary& dict = dictionaries()[kNewestDictionary - 1];
  if (dict.compress == nullptr) return {};
  thread_local std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx;
  if (!cctx) {
    cctx.reset(ZSTD_createCCtx());
    if (!cctx) return {};
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_refCDict(cctx.get(), dict.compress);
  }
  std::string out(ZSTD_compressBound(json.size()), '\0');
  const std::size_t n =
      ZSTD_compress2(cctx.get(), out.data(), out.size(), json.data(), json.size());
  if (ZSTD_isError(n)) {
    cctx.reset();  // made again, with its parameters, on the next call
    return {};
  }
  out.resize(n);
  return out;
}

Result<std::string> expand_report(std::string_view compact) {
  const unsigned id = ZSTD_getDictID_fromFrame(compact.data(), compact.size());
  if (id == 0 || id > kNewestDictionary || dictionaries()[id - 1].expand == nullptr) {
    return Status::internal("stored report: unknown dictionary " + std::to_string(id));
  }
  const unsigned long long size = ZSTD_getFrameContentSize(compact.data(), compact.size());
  if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR ||
      size > kMaxReportBytes) {
    return Status::internal("stored report: damaged frame");
  }
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx;
  if (!dctx) dctx.reset(ZSTD_createDCtx());
  std::string out(static_cast<std::size_t>(size), '\0');
  const std::size_t n =
      ZSTD_decompress_usingDDict(dctx.get(), out.data(), out.size(), compact.data(), compact.size(),
                                 dictionaries()[id - 1].expand);
  if (ZSTD_isError(n) || n != out.size()) {
    return Status::internal(std::string("stored report: ") +
                            (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short frame"));
  }
  return out;
}

}  // namespace scamcheck::server
