// session_lines.hpp — the Session's lines in and out: the judge's lines read from a file
// descriptor (cut at protocol::kMaxLine, end of input and poll timeouts told apart, input buffered
// while the strategy thinks so that FINISH is seen) and whole lines written with write().
// Part of session.hpp; standard library and POSIX only (it goes into fused submissions).
#pragma once

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "tactica/protocol.hpp"

namespace tactica::detail {

using Clock = std::chrono::steady_clock;
// ---- lines from a file descriptor ---------------------------------------------------------------

class LineReader {
 public:
  enum class Status { line, eof, timeout };
  explicit LineReader(int fd) : fd_(fd) {}

  // The next line without its '\n' (a last line without one counts). `cut` is set when the line
  // was longer than protocol::kMaxLine (only its beginning is kept). timeout_ms < 0 waits for
  // ever; `arrived` is when the read that brought the line returned.
  Status next(std::string& line, bool& cut, Clock::time_point& arrived, int timeout_ms) {
    for (;;) {
      const auto nl = pending_.find('\n');
      if (nl != std::string::npos) {
        cut = cut_ || nl > protocol::kMaxLine;
        line.assign(pending_, 0, std::min(nl, protocol::kMaxLine));
        pending_.erase(0, nl + 1);
        cut_ = false;
        arrived = read_at_;
        return Status::line;
      }
      if (pending_.size() > protocol::kMaxLine) pending_.resize(protocol::kMaxLine), cut_ = true;
      if (eof_) {
        if (pending_.empty() && !cut_) return Status::eof;
        line.swap(pending_);
        pending_.clear();
        cut = cut_;
        cut_ = false;
        arrived = read_at_;
        return Status::line;
      }
      if (timeout_ms >= 0) {
        pollfd p{fd_, POLLIN, 0};
        const int r = ::poll(&p, 1, timeout_ms);
        if (r == 0) return Status::timeout;
        if (r < 0 && errno == EINTR) continue;
      }
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      read_at_ = Clock::now();
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      pending_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  // Buffers what input has arrived within `timeout_ms` (0: none waited for) without taking a
  // line; next() returns it later. True once input has ended.
  bool fill(int timeout_ms) {
    while (!eof_ && pending_.size() <= 4 * protocol::kMaxLine) {
      pollfd p{fd_, POLLIN, 0};
      const int r = ::poll(&p, 1, timeout_ms);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      read_at_ = Clock::now();
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) break;
      if (n <= 0) {
        eof_ = true;
        break;
      }
      pending_.append(chunk, static_cast<std::size_t>(n));
      timeout_ms = 0;
    }
    return eof_;
  }
  // A complete line waiting in the buffer is exactly `word` (a CR before '\n' allowed).
  bool has_line(std::string_view word) const {
    std::size_t start = 0;
    for (;;) {
      const auto nl = pending_.find('\n', start);
      if (nl == std::string::npos) return false;
      std::string_view l(pending_.data() + start, nl - start);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      if (l == word) return true;
      start = nl + 1;
    }
  }

 private:
  int fd_;
  std::string pending_;
  bool cut_ = false, eof_ = false;
  Clock::time_point read_at_ = Clock::now();
};

// Writes all of `s` with as few write() calls as the pipe allows; false if the reader is gone.
inline bool write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    const ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace tactica::detail
