// Every limit of scamcheckd in one place, each with its unit (CONTRACT §2).
// Operators can change the connection and timeout limits with flags of
// `scamcheckd serve`; the body limits are part of the contract.
#ifndef SCAMCHECK_ADAPTERS_SERVER_SERVER_LIMITS_H_
#define SCAMCHECK_ADAPTERS_SERVER_SERVER_LIMITS_H_

#include <chrono>
#include <cstddef>

namespace scamcheck::server {

// Largest decoded `content` of a JSON scan, in bytes (CONTRACT §2: 65,536).
inline constexpr std::size_t kMaxContentBytes = 65536;
// Largest JSON request body, in bytes (CONTRACT §2: 512 KiB, room for
// escaping and base64 of the largest content).
inline constexpr std::size_t kMaxJsonBodyBytes = 512 * 1024;
// Largest multipart/form-data body, in bytes: a 10 MiB file plus the other
// parts and boundaries.
inline constexpr std::size_t kMaxMultipartBodyBytes = 10 * 1024 * 1024 + 64 * 1024;
// Longest text field of a multipart scan (kind, locale, source_app), in bytes.
inline constexpr std::size_t kMaxFormTextBytes = 256;
// Image and document scans that may wait for a worker of the file scan pool,
// per worker (file_scans.h): at 0.2-0.6 s of OCR each, a queued scan starts
// within a few seconds. Beyond it the scan is answered 503 at once, with
// Retry-After in seconds:
inline constexpr std::size_t kFileScanQueuePerWorker = 4;
inline constexpr std::chrono::seconds kFileScanRetryAfter{2};
// Threads per --workers of the pool that runs JSON scans when an AI
// provider or a reputation service is configured: they mostly wait on the
// network (up to the provider's 8 s timeout), so more than the cores.
inline constexpr unsigned kProviderScanThreadsPerWorker = 4;
// Largest body of a POST to the MCP endpoint, in bytes (CONTRACT §2: MCP
// request bodies up to 16 MiB, room for base64 images).
inline constexpr std::size_t kMaxMcpBodyBytes = 16 * 1024 * 1024;
// Largest request line plus header fields, in bytes.
inline constexpr std::size_t kMaxHeaderBytes = 16 * 1024;
// Longest X-Request-ID that is echoed, in characters.
inline constexpr std::size_t kMaxRequestIdChars = 128;

// Default of --max-connections: open client connections at once. When the
// limit is reached, the longest-idle keep-alive connection is closed to make
// room; when none is idle, the new connection is closed at once.
inline constexpr std::size_t kDefaultMaxConnections = 4096;
// Default of --max-connections-per-address: open connections from one
// client address (the socket's peer; behind a reverse proxy, its address:
// raise it or set 0 for no cap). Beyond it a new connection from that
// address is closed at once, so one address cannot fill --max-connections.
inline constexpr std::size_t kDefaultMaxConnectionsPerAddress = 256;
// Default of --idle-timeout: how long a keep-alive connection may wait for
// the first byte of its next request.
inline constexpr std::chrono::seconds kDefaultIdleTimeout{60};
// Default of --header-timeout: how long a client may take to send the head
// of a request (request line and header fields), from the accept for a
// connection's first request, from its first byte after that. Past it the
// request is answered 408 and the connection closed (silently when nothing
// was sent).
inline constexpr std::chrono::seconds kDefaultHeaderTimeout{5};
// Default of --read-timeout: how long a client may take to send the body of
// a request once its head arrived; past it 408 and the connection closed.
inline constexpr std::chrono::seconds kDefaultReadTimeout{15};
// How long writing one response may take.
inline constexpr std::chrono::seconds kWriteTimeout{30};
// On SIGTERM: the longest wait for in-flight requests before exiting anyway.
inline constexpr std::chrono::seconds kShutdownGrace{20};

// Reports list: `limit` bounds and default (CONTRACT §2).
inline constexpr int kListLimitMin = 1;
inline constexpr int kListLimitMax = 100;
inline constexpr int kListLimitDefault = 20;

// URL scan cache lifetime (CONTRACT §2: 24 h).
inline constexpr std::chrono::seconds kUrlCacheTtl{24 * 3600};
// `last_used_at` of a token is written at most once per this interval.
inline constexpr std::chrono::seconds kTokenTouchInterval{60};
// How often --feeds-dir is checked for changed files.
inline constexpr std::chrono::seconds kFeedPollInterval{2};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_SERVER_LIMITS_H_
