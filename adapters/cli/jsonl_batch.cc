#include "jsonl_batch.h"

#include <simdjson.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "common/ascii.h"
#include "common/base64.h"
#include "common/line_reader.h"
#include "common/report_json.h"
#include "common/status_map.h"

namespace scamcheck::cli {
namespace {

using adapters::LineReader;

constexpr int kExitIoError = 74;  // EX_IOERR
// Chunks in flight per worker: enough that workers never wait for the
// reader or the writer, few enough to bound memory.
constexpr std::size_t kChunksPerThread = 4;
// A chunk also ends after this many input bytes (long emails).
constexpr std::size_t kChunkBytes = 1u << 20;

struct LineRef {
  std::size_t offset = 0;
  std::size_t size = 0;
  bool too_long = false;
};

struct Chunk {
  enum class State { kFree, kQueued, kDone };
  State state = State::kFree;
  std::uint64_t seq = 0;
  // The chunk's lines, back to back, and SIMDJSON_PADDING spaces after the
  // last: simdjson reads each line where it is.
  std::string input;
  std::vector<LineRef> lines;
  std::string output;  // one JSON line per input line
  std::uint64_t errors = 0;
};

// Per-worker state: parsers and buffers reused for every line.
class LineProcessor {
 public:
  LineProcessor(const Analyzer& analyzer, const JsonlOptions& options)
      : analyzer_(analyzer), options_(options), writer_(buffer_) {}

  // Appends the answer to `line` (plus '\n') to *out. Returns false when
  // the answer is an error. SIMDJSON_PADDING bytes after `line` must be
  // readable.
  bool process(std::string_view line, bool too_long, std::string* out) {
    buffer_.Clear();
    writer_.Reset(buffer_);
    bool ok = false;
    try {
      ok = answer(line, too_long);
    } catch (const std::exception& e) {  // allocation failure, most likely
      buffer_.Clear();
      writer_.Reset(buffer_);
      write_error("null", std::string("internal error: ") + e.what());
    }
    out->append(buffer_.GetString(), buffer_.GetSize());
    out->push_back('\n');
    return ok;
  }

 private:
  bool answer(std::string_view line, bool too_long) {
    if (too_long) {
      write_error("null", "line longer than " + std::to_string(kMaxLineBytes) + " bytes");
      return false;
    }
    // simdjson reads up to SIMDJSON_PADDING bytes past the end, which the
    // chunk holds (see Chunk::input).
    simdjson::dom::element root;
    if (const auto error = dom_.parse(line.data(), line.size(), false).get(root)) {
      write_error("null", std::string("invalid JSON: ") + simdjson::error_message(error));
      return false;
    }
    simdjson::dom::object object;
    if (root.get_object().get(object)) {
      write_error("null", "expected a JSON object");
      return false;
    }

    std::string_view id = "null";
    simdjson::dom::element id_element;
    if (!object["id"].get(id_element) && !id_element.is_null()) id = raw_id(line, id_element);

    std::string_view content;
    if (object["content"].get_string().get(content)) {
      write_error(id, "\"content\" is missing or not a string");
      return false;
    }

    Kind kind = options_.default_kind;
    std::string_view text;
    if (const auto field = object["kind"]; !field.error() && !field.is_null()) {
      if (field.get_string().get(text)) {
        write_error(id, "\"kind\" must be a string");
        return false;
      }
      const std::optional<Kind> parsed = parse_kind(text);
      if (!parsed) {
        write_error(id, "unknown kind \"" + std::string(text) +
                            "\" (expected text, email, url, image or document)");
        return false;
      }
      kind = *parsed;
    }

    std::string_view locale = options_.default_locale;
    if (const auto field = object["locale"]; !field.error() && !field.is_null()) {
      if (field.get_string().get(locale)) {
        write_error(id, "\"locale\" must be a string");
        return false;
      }
    }

    if (const auto field = object["content_encoding"]; !field.error() && !field.is_null()) {
      if (field.get_string().get(text)) {
        write_error(id, "\"content_encoding\" must be a string");
        return false;
      }
      if (adapters::equals_ci(text, "base64")) {
        if (!adapters::decode_base64(content, &decoded_)) {
          write_error(id, "content is not valid base64");
          return false;
        }
        content = decoded_;
      } else if (!adapters::equals_ci(text, "utf-8") && !adapters::equals_ci(text, "utf8")) {
        write_error(id, "unknown content_encoding \"" + std::string(text) +
                            "\" (expected utf-8 or base64)");
        return false;
      }
    }

    const Result<Report> report = analyzer_.analyze(content, kind, locale);
    if (!report.ok()) {
      write_error(id, report.status().message());
      return false;
    }
    writer_.StartObject();
    writer_.Key("id", 2);
    writer_.RawValue(id.data(), id.size(), rapidjson::kObjectType);
    writer_.Key("report", 6);
    adapters::write_report(writer_, *report);
    writer_.EndObject();
    return true;
  }

  // The id exactly as written in the line. The DOM parse above validated
  // the whole line, so the On-Demand parser's raw view of the value is
  // well-formed JSON.
  std::string_view raw_id(std::string_view line, simdjson::dom::element element) {
    // An integer but 0 (which may be written -0) is written one way only
    // (JSON has no leading zeros or plus signs): its digits, without a
    // second parse of a line that may be megabytes of base64.
    if (element.type() == simdjson::dom::element_type::INT64 && std::int64_t(element) != 0) {
      id_fallback_ = std::to_string(std::int64_t(element));
      return id_fallback_;
    }
    if (element.type() == simdjson::dom::element_type::UINT64) {
      id_fallback_ = std::to_string(std::uint64_t(element));
      return id_fallback_;
    }
    simdjson::ondemand::document doc;
    simdjson::ondemand::value value;
    std::string_view raw;
    if (!ondemand_.iterate(line.data(), line.size(), line.size() + simdjson::SIMDJSON_PADDING)
             .get(doc) &&
        !doc.find_field_unordered("id").get(value) && !simdjson::to_json_string(value).get(raw)) {
      return raw;
    }
    // A key spelled with escapes ("\u0069d") is not found by the raw
    // comparison above: fall back to the minified value.
    id_fallback_ = simdjson::minify(element);
    return id_fallback_;
  }

  void write_error(std::string_view id, std::string_view message) {
    writer_.StartObject();
    writer_.Key("id", 2);
    writer_.RawValue(id.data(), id.size(), rapidjson::kObjectType);
    writer_.Key("error", 5);
    adapters::write_error_object(writer_, message);
    writer_.EndObject();
  }

  const Analyzer& analyzer_;
  const JsonlOptions& options_;
  simdjson::dom::parser dom_;
  simdjson::ondemand::parser ondemand_;
  std::string decoded_;
  std::string id_fallback_;
  rapidjson::StringBuffer buffer_;
  adapters::JsonWriter writer_;
};

// "1234567" -> "1,234,567"
std::string with_separators(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// Shared between the reader, the workers and the writer; the reader holds
// it by shared_ptr so it can be left blocked in read(2) if writing fails.
struct PipelineState {
  explicit PipelineState(std::size_t slots) : chunks(slots) {}

  std::mutex mu;
  std::condition_variable slot_freed;   // reader waits
  std::condition_variable work_queued;  // workers wait
  std::condition_variable chunk_done;   // writer waits
  std::vector<Chunk> chunks;            // ring: chunk seq lives in slot seq % size
  std::deque<Chunk*> queue;
  std::uint64_t chunks_read = 0;
  bool input_done = false;
  bool read_failed = false;
  bool abort = false;
};

void reader_main(std::shared_ptr<PipelineState> state, int fd, std::size_t chunk_lines) {
  LineReader reader(fd, kMaxLineBytes);
  bool first_line = true;
  std::uint64_t seq = 0;  // of the next chunk handed to the workers
  for (;;) {
    Chunk* chunk;
    {
      std::unique_lock lock(state->mu);
      chunk = &state->chunks[seq % state->chunks.size()];
      state->slot_freed.wait(lock,
                             [&] { return state->abort || chunk->state == Chunk::State::kFree; });
      if (state->abort) return;
    }
    chunk->input.clear();
    chunk->lines.clear();
    bool end = false;
    while (chunk->lines.size() < chunk_lines && chunk->input.size() < kChunkBytes) {
      // Hand over what we have rather than wait for a slow producer.
      if (!chunk->lines.empty() && !reader.has_line()) break;
      std::string_view line;
      bool too_long;
      if (!reader.next(&line, &too_long)) {
        end = true;
        break;
      }
      if (first_line && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);  // BOM
      first_line = false;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (!too_long && adapters::is_blank_line(line)) continue;
      chunk->lines.push_back({chunk->input.size(), line.size(), too_long});
      // Room for the padding too, so that it is never a copy of the chunk.
      chunk->input.reserve(chunk->input.size() + line.size() + simdjson::SIMDJSON_PADDING);
      chunk->input.append(line);
    }
    chunk->input.append(simdjson::SIMDJSON_PADDING, ' ');
    std::lock_guard lock(state->mu);
    if (!chunk->lines.empty()) {
      chunk->seq = seq++;
      chunk->state = Chunk::State::kQueued;
      state->queue.push_back(chunk);
      ++state->chunks_read;
      state->work_queued.notify_one();
    }
    if (end) {
      state->input_done = true;
      state->read_failed = reader.failed();
      state->work_queued.notify_all();
      state->chunk_done.notify_all();
      return;
    }
  }
}

void worker_main(PipelineState& state, const Analyzer& analyzer, const JsonlOptions& options) {
  LineProcessor processor(analyzer, options);
  for (;;) {
    Chunk* chunk;
    {
      std::unique_lock lock(state.mu);
      state.work_queued.wait(
          lock, [&] { return state.abort || state.input_done || !state.queue.empty(); });
      if (state.abort || state.queue.empty()) return;
      chunk = state.queue.front();
      state.queue.pop_front();
    }
    chunk->output.clear();
    chunk->errors = 0;
    for (const LineRef& line : chunk->lines) {
      const std::string_view text(chunk->input.data() + line.offset, line.size);
      if (!processor.process(text, line.too_long, &chunk->output)) ++chunk->errors;
    }
    std::lock_guard lock(state.mu);
    chunk->state = Chunk::State::kDone;
    state.chunk_done.notify_all();
  }
}

}  // namespace

int run_jsonl(const Analyzer& analyzer, std::FILE* in, std::FILE* out, const JsonlOptions& options,
              JsonlStats* stats) {
  const unsigned threads = std::max(1u, options.threads);
  const std::size_t chunk_lines = std::max<std::size_t>(1, options.chunk_lines);
  auto state = std::make_shared<PipelineState>(kChunksPerThread * threads + 2);

  std::thread reader(reader_main, state, fileno(in), chunk_lines);
  std::vector<std::thread> workers;
  workers.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) {
    workers.emplace_back(worker_main, std::ref(*state), std::cref(analyzer), std::cref(options));
  }

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto last_progress = start;
  JsonlStats counts;
  bool write_failed = false;
  const auto show_progress = [&](Clock::time_point now, const char* end) {
    const double seconds = std::chrono::duration<double>(now - start).count();
    const auto rate = static_cast<std::uint64_t>(seconds > 0 ? counts.lines / seconds : 0);
    std::fprintf(stderr, "\r%s messages, %s/s%s", with_separators(counts.lines).c_str(),
                 with_separators(rate).c_str(), end);
  };

  // The calling thread writes finished chunks in input order.
  for (std::uint64_t seq = 0;; ++seq) {
    Chunk* chunk = &state->chunks[seq % state->chunks.size()];
    {
      std::unique_lock lock(state->mu);
      state->chunk_done.wait(lock, [&] {
        return (chunk->state == Chunk::State::kDone && chunk->seq == seq) ||
               (state->input_done && seq == state->chunks_read);
      });
      if (chunk->state != Chunk::State::kDone || chunk->seq != seq) break;  // all written
    }
    // One write per chunk; flushed at once so that a consumer reading a
    // pipe sees answers as their lines arrive.
    if (std::fwrite(chunk->output.data(), 1, chunk->output.size(), out) != chunk->output.size() ||
        std::fflush(out) != 0) {
      write_failed = true;
    }
    counts.lines += chunk->lines.size();
    counts.errors += chunk->errors;
    {
      std::lock_guard lock(state->mu);
      chunk->state = Chunk::State::kFree;
      if (write_failed) state->abort = true;
      state->slot_freed.notify_one();
      if (write_failed) {
        state->work_queued.notify_all();
        break;
      }
    }
    if (options.progress) {
      const auto now = Clock::now();
      if (now - last_progress >= std::chrono::milliseconds(200)) {
        last_progress = now;
        show_progress(now, "");
      }
    }
  }
  if (std::fflush(out) != 0) write_failed = true;
  for (std::thread& worker : workers) worker.join();
  if (write_failed) {
    reader.detach();  // may be blocked in read(2); it owns a share of `state`
  } else {
    reader.join();
  }
  if (options.progress) show_progress(Clock::now(), "\n");
  if (stats) *stats = counts;
  if (write_failed) {
    std::fprintf(stderr, "scamcheck: cannot write output: %s\n", std::strerror(errno));
    return kExitIoError;
  }
  if (state->read_failed) {
    std::fprintf(stderr, "scamcheck: error reading input: %s\n", std::strerror(errno));
    return kExitIoError;
  }
  return adapters::kExitSafe;
}

}  // namespace scamcheck::cli
