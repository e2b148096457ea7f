// A tiny HTTP/1.1 server on 127.0.0.1 for tests and benchmarks that talk to
// a local stand-in of an external provider. One thread accepts; each
// connection gets its own thread and may carry many requests (keep-alive).
// A handler decides each response, and may delay it or never answer
// ("hang") until the server stops.
#ifndef SCAMCHECK_TESTS_SUPPORT_TEST_HTTP_SERVER_H_
#define SCAMCHECK_TESTS_SUPPORT_TEST_HTTP_SERVER_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace scamcheck::testing {

struct TestRequest {
  std::string method;
  std::string target;   // path and query, e.g. "/v4/threatMatches:find?key=k"
  std::string headers;  // the raw header block, lines joined with "\r\n"
  std::string body;

  // The value of header `name` (case-insensitive), or "".
  std::string header(std::string_view name) const {
    std::size_t pos = 0;
    while (pos < headers.size()) {
      std::size_t end = headers.find("\r\n", pos);
      if (end == std::string::npos) end = headers.size();
      const std::string_view line(headers.data() + pos, end - pos);
      const std::size_t colon = line.find(':');
      if (colon == name.size() &&
          std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) ==
                   std::tolower(static_cast<unsigned char>(b));
          })) {
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        return std::string(value);
      }
      pos = end + 2;
    }
    return "";
  }
};

struct TestResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  int delay_ms = 0;   // wait this long before answering
  bool hang = false;  // never answer; the connection closes when the server stops
};

class TestHttpServer {
 public:
  using Handler = std::function<TestResponse(const TestRequest&)>;

  explicit TestHttpServer(Handler handler) : handler_(std::move(handler)) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(listen_fd_, 64);
    socklen_t len = sizeof addr;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }

  ~TestHttpServer() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
    acceptor_.join();
    std::vector<std::thread> connections;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      connections.swap(connections_);
    }
    for (std::thread& t : connections) t.join();
    ::close(listen_fd_);
  }

  TestHttpServer(const TestHttpServer&) = delete;
  TestHttpServer& operator=(const TestHttpServer&) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int requests() const { return requests_.load(); }

 private:
  bool stopping() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stopping_;
  }

  // Waits up to `ms` (forever if < 0) or until the server stops; true if stopping.
  bool wait(int ms) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (ms < 0) {
      cv_.wait(lock, [this] { return stopping_; });
    } else {
      cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping_; });
    }
    return stopping_;
  }

  void accept_loop() {
    while (!stopping()) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      const int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      std::lock_guard<std::mutex> lock(mutex_);
      connections_.emplace_back([this, fd] {
        serve(fd);
        ::close(fd);
      });
    }
  }

  // Reads more bytes into `buffer`; false on close, error or stop.
  bool read_more(int fd, std::string& buffer) {
    while (!stopping()) {
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, 20);
      if (ready < 0) return false;
      if (ready == 0) continue;
      char chunk[16384];
      const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      buffer.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    return false;
  }

  void serve(int fd) {
    std::string buffer;
    for (;;) {
      std::size_t head_end;
      while ((head_end = buffer.find("\r\n\r\n")) == std::string::npos) {
        if (!read_more(fd, buffer)) return;
      }
      TestRequest request;
      const std::string head = buffer.substr(0, head_end);
      const std::size_t line_end = head.find("\r\n");
      const std::string request_line = head.substr(0, line_end);
      request.headers = line_end == std::string::npos ? "" : head.substr(line_end + 2);
      const std::size_t sp1 = request_line.find(' ');
      const std::size_t sp2 = request_line.find(' ', sp1 + 1);
      request.method = request_line.substr(0, sp1);
      request.target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
      const std::string length = request.header("Content-Length");
      const std::size_t body_size = length.empty() ? 0 : std::stoul(length);
      while (buffer.size() < head_end + 4 + body_size) {
        if (!read_more(fd, buffer)) return;
      }
      request.body = buffer.substr(head_end + 4, body_size);
      buffer.erase(0, head_end + 4 + body_size);
      ++requests_;

      const TestResponse response = handler_(request);
      if (response.hang) {
        wait(-1);
        return;
      }
      if (response.delay_ms > 0 && wait(response.delay_ms)) return;
      std::string out = "HTTP/1.1 " + std::to_string(response.status) +
                        " X\r\nContent-Type: " + response.content_type +
                        "\r\nContent-Length: " + std::to_string(response.body.size()) +
                        "\r\nConnection: keep-alive\r\n\r\n" + response.body;
      std::size_t sent = 0;
      while (sent < out.size()) {
        const ssize_t n = ::send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return;
        sent += static_cast<std::size_t>(n);
      }
    }
  }

  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<int> requests_{0};
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread acceptor_;
  std::vector<std::thread> connections_;
};

}  // namespace scamcheck::testing

#endif  // SCAMCHECK_TESTS_SUPPORT_TEST_HTTP_SERVER_H_
