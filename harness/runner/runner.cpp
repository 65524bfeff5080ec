// runner.cpp — see runner.hpp.
#include "runner/runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "judge/judge.hpp"
#include "process/process.hpp"

namespace tactica::harness {
namespace {

bool parse_u64(const std::string& s, std::uint64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  std::uint64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(ch - '0');
  }
  out = v;
  return true;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int sig) {
  g_interrupted.store(true);
  ::signal(sig, SIG_DFL);  // a second Ctrl-C ends the harness at once
}

std::string hms(double seconds) {
  if (!(seconds >= 0) || seconds > 1e7) return "--:--";
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace

std::vector<std::uint64_t> parse_seeds(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::set<std::uint64_t> seen;
  const std::string how = ": expected seeds like 1-30 or 1,5,9 or 1-10,20-25";
  if (trim(text).empty()) throw RunError("empty seed list" + how);
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto comma = text.find(',', pos);
    const std::string part =
        trim(text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    std::uint64_t a, b;
    const auto dash = part.find('-');
    if (dash == std::string::npos) {
      if (!parse_u64(part, a)) throw RunError("bad seed '" + part + "' in '" + text + "'" + how);
      b = a;
    } else if (!parse_u64(trim(part.substr(0, dash)), a) ||
               !parse_u64(trim(part.substr(dash + 1)), b) || b < a) {
      throw RunError("bad seed range '" + part + "' in '" + text + "'" + how);
    }
    if (b - a > 10000000)
      throw RunError("seed range '" + part + "' is too long (at most 10,000,000 seeds)");
    for (std::uint64_t s = a;; ++s) {
      if (!seen.insert(s).second)
        throw RunError("seed " + std::to_string(s) + " is listed twice in '" + text + "'");
      out.push_back(s);
      if (s == b) break;
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  std::uint64_t k = 0, n = 0;
  if (slash == std::string::npos || !parse_u64(trim(text.substr(0, slash)), k) ||
      !parse_u64(trim(text.substr(slash + 1)), n) || n == 0 || n > 100000 || k < 1 || k > n)
    throw RunError("bad shard '" + text + "': expected K/N with 1 <= K <= N, e.g. --shard 3/8");
  return Shard{static_cast<int>(k), static_cast<int>(n)};
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char buf[8];
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else if (c == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(text[i + 1]));
      out += buf;
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string ResultsScan::torn_note(const std::string& path) const {
  if (!torn_line) return {};
  return printable(path) + ":" + std::to_string(torn_line) + ": torn last line (" +
         std::to_string(torn_bytes) + " bytes, no newline: a run stopped mid-write) dropped";
}

ResultsScan scan_results(const std::string& path,
                         const std::function<void(nlohmann::json&&, std::size_t)>& on_line) {
  const std::string shown = printable(path);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw RunError("results file '" + shown + "' is a directory: give a .jsonl file");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw RunError("cannot read results file '" + shown + "': " + std::strerror(errno));
  struct Closer {
    std::FILE* f;
    ~Closer() { std::fclose(f); }
  } closer{f};
  ResultsScan scan;
  std::string line;
  const auto handle = [&](std::size_t lineno) {
    if (trim(line).empty()) return;
    const std::string where = shown + ":" + std::to_string(lineno);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      throw RunError(where + ": not JSON (" + printable(e.what()) +
                     "): is this a tactica results file?");
    }
    if (!j.is_object() || !j.contains("game"))
      throw RunError(where + ": not a tactica result line (no \"game\")");
    on_line(std::move(j), lineno);
  };
  char buf[65536];
  for (;;) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    if (n == 0) {
      if (std::ferror(f))
        throw RunError("cannot read results file '" + shown + "': " + std::strerror(errno));
      break;
    }
    std::size_t pos = 0;
    while (pos < n) {
      const void* nl = std::memchr(buf + pos, '\n', n - pos);
      const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - buf) : n;
      if (line.size() + (end - pos) > kMaxResultLineBytes)
        throw RunError(shown + ":" + std::to_string(scan.lines + 1) + ": a line longer than " +
                       std::to_string(kMaxResultLineBytes) +
                       " bytes: not a tactica results line (is this the right file?)");
      line.append(buf + pos, end - pos);
      if (!nl) break;
      ++scan.lines;
      handle(scan.lines);
      line.clear();
      pos = end + 1;
    }
  }
  if (!line.empty()) {
    scan.torn_line = scan.lines + 1;
    scan.torn_bytes = line.size();
  }
  return scan;
}

ResultsWriter::ResultsWriter(const std::string& path, bool resume) : path_(path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string shown = printable(path);
  if (const auto dir = fs::path(path).parent_path(); !dir.empty()) fs::create_directories(dir, ec);
  const int flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | (resume ? 0 : O_EXCL);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0 && errno == EEXIST)
    throw RunError("results file '" + shown + "' exists: continue it with --resume " + shown +
                   ", or choose another --out");
  if (fd_ < 0) throw RunError("cannot write results file '" + shown + "': " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    ::close(fd_);
    fd_ = -1;
    if (e == EWOULDBLOCK)
      throw RunError("results file '" + shown +
                     "' is being written by another tactica run (it holds the file's lock): "
                     "wait for that run to end, or give another --out");
    throw RunError("cannot lock results file '" + shown + "': " + std::strerror(e));
  }
}

ResultsWriter::~ResultsWriter() {
  if (fd_ >= 0) ::close(fd_);  // also releases the lock
}

void ResultsWriter::cut_torn_line() {
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || st.st_size == 0) return;
  const int rd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (rd < 0) return;
  // A line is at most kMaxResultLineBytes (longer ones were refused when the file was read).
  const off_t tail = std::min<off_t>(st.st_size, static_cast<off_t>(kMaxResultLineBytes) + 2);
  std::string buf(static_cast<std::size_t>(tail), '\0');
  const ssize_t n = ::pread(rd, buf.data(), buf.size(), st.st_size - tail);
  ::close(rd);
  if (n != static_cast<ssize_t>(buf.size())) return;
  const auto last_nl = buf.rfind('\n');
  if (last_nl == buf.size() - 1) return;
  const off_t keep = last_nl == std::string::npos
                         ? st.st_size - tail
                         : st.st_size - tail + static_cast<off_t>(last_nl) + 1;
  if (::ftruncate(fd_, keep) != 0)
    throw RunError("cannot cut the torn last line of '" + printable(path_) +
                   "': " + std::strerror(errno));
}

void ResultsWriter::append(const nlohmann::json& line) {
  const std::string s = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::size_t off = 0;
  while (off < s.size()) {
    const ssize_t n = ::write(fd_, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw RunError("cannot write results file '" + printable(path_) +
                     "': " + std::strerror(errno));
    off += static_cast<std::size_t>(n);
  }
}

Progress::Progress(std::size_t total, bool tty, std::chrono::seconds plain_every)
    : total_(total),
      tty_(tty),
      plain_every_(plain_every),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::update(std::size_t done, const std::string& note) {
  done_ = done;
  if (!note.empty()) note_ = note;
  const auto now = std::chrono::steady_clock::now();
  const double since_last = std::chrono::duration<double>(now - last_).count();
  if (tty_ ? (drawn_ && since_last < 0.2 && done < total_)
           : since_last < static_cast<double>(plain_every_.count()))
    return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : -1;
  char line[256];
  if (tty_) {
    const int width = 24;
    const int filled = total_ ? static_cast<int>(width * done / total_) : width;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    std::snprintf(line, sizeof line, "\r[%s] %zu/%zu games  %.2f/s  ETA %s  %s\x1b[K", bar.c_str(),
                  done, total_, rate, hms(eta).c_str(), note_.c_str());
    drawn_ = true;
  } else {
    std::snprintf(line, sizeof line,
                  "progress: %zu/%zu games, %.2f games/s, elapsed %s, ETA %s%s%s\n", done, total_,
                  rate, hms(elapsed).c_str(), hms(eta).c_str(), note_.empty() ? "" : ", ",
                  note_.c_str());
  }
  std::fputs(line, stderr);
  std::fflush(stderr);
}

void Progress::finish() {
  if (tty_) {
    last_ = {};
    drawn_ = false;
    update(done_);
    std::fputs("\n", stderr);
  } else {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "progress: %zu/%zu games in %s\n", done_, total_, hms(elapsed).c_str());
  }
  std::fflush(stderr);
}

int core_count() {
  const unsigned n = std::thread::hardware_concurrency();
  return n ? static_cast<int>(n) : 1;
}

std::string workers_warning(int workers) {
  const int cores = core_count();
  if (workers <= cores) return {};
  return "warning: " + std::to_string(workers) + " workers on " + std::to_string(cores) +
         " cores: agents will compete for CPU and their time banks will not mean what they mean "
         "on the platform (use --workers " +
         std::to_string(cores) + " or fewer for verdicts you can trust)";
}

std::optional<CpuTimes> parse_cpu_times(const std::string& proc_stat) {
  std::istringstream in(proc_stat);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu ", 0) != 0) continue;
    std::istringstream fields(line.substr(4));
    // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user/nice)
    std::uint64_t v[8] = {};
    int n = 0;
    while (n < 8 && fields >> v[n]) ++n;
    if (n < 4) return std::nullopt;
    CpuTimes t;
    t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    t.total = t.busy + v[3] + v[4];
    return t;
  }
  return std::nullopt;
}

double busy_cores(const CpuTimes& before, const CpuTimes& after, int cores) {
  if (after.total <= before.total || after.busy < before.busy) return 0.0;
  const double share = static_cast<double>(after.busy - before.busy) /
                       static_cast<double>(after.total - before.total);
  return std::clamp(share, 0.0, 1.0) * cores;
}

std::string busy_message(double busy, int cores, int workers, double threshold,
                         const std::string& during) {
  const int free_cores = cores - std::clamp(workers, 1, cores);
  if (busy < threshold + free_cores) return {};
  char buf[400];
  if (!during.empty()) {
    std::snprintf(buf, sizeof buf,
                  "warning: the machine was busy during %s: %.1f of %d cores in use by other "
                  "processes on average beside its %d games at once; clock figures from it are "
                  "pessimistic and noisy (play them again on a quiet machine, or compare on a "
                  "node budget)",
                  during.c_str(), busy, cores, workers);
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "warning: the machine is busy: %.1f of %d cores in use by other processes before "
                "the first game of %d at once; agents on the clock will search less, and less "
                "evenly, than on a quiet machine (stop the other work, or compare on a node "
                "budget)",
                busy, cores, workers);
  return buf;
}

namespace {

std::optional<CpuTimes> read_cpu_times() {
  std::ifstream f("/proc/stat");
  if (!f) return std::nullopt;
  std::string line;
  if (!std::getline(f, line)) return std::nullopt;
  return parse_cpu_times(line);
}

// CPU seconds (user + system) of this process and of its children that have been reaped.
double own_cpu_seconds() {
  const auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  double s = 0;
  for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage ru{};
    if (::getrusage(who, &ru) == 0) s += secs(ru.ru_utime) + secs(ru.ru_stime);
  }
  return s;
}

}  // namespace

double others_cores(const CpuTimes& before, const CpuTimes& after, double own_cpu_s,
                    long ticks_per_s, int cores) {
  if (after.total <= before.total || after.busy < before.busy || ticks_per_s <= 0 || cores <= 0)
    return 0.0;
  const double tick = 1.0 / static_cast<double>(ticks_per_s);
  const double wall_s = static_cast<double>(after.total - before.total) * tick / cores;
  const double busy_s = static_cast<double>(after.busy - before.busy) * tick;
  return std::clamp((busy_s - own_cpu_s) / wall_s, 0.0, static_cast<double>(cores));
}

LoadMeter::LoadMeter() : machine_(read_cpu_times()), own_s_(own_cpu_seconds()) {}

std::optional<double> LoadMeter::others(double min_seconds) const {
  if (!machine_) return std::nullopt;
  const auto now = read_cpu_times();
  if (!now || now->total <= machine_->total) return std::nullopt;
  const long t = ::sysconf(_SC_CLK_TCK);
  const long ticks = t > 0 ? t : 100;
  const int cores = core_count();
  const double wall_s = static_cast<double>(now->total - machine_->total) / ticks / cores;
  if (wall_s < min_seconds) return std::nullopt;
  return others_cores(*machine_, *now, own_cpu_seconds() - own_s_, ticks, cores);
}

std::string LoadMeter::warning(int workers, const std::string& during, double threshold) const {
  const auto busy = others();
  if (!busy) return {};
  return busy_message(*busy, core_count(), workers, threshold, during.empty() ? "the run" : during);
}

std::string busy_warning(int workers, int sample_ms, double threshold) {
  const auto a = read_cpu_times();
  if (!a) return {};
  std::this_thread::sleep_for(std::chrono::milliseconds(sample_ms));
  const auto b = read_cpu_times();
  if (!b) return {};
  const int cores = core_count();
  return busy_message(busy_cores(*a, *b, cores), cores, workers, threshold);
}

StopSignals::StopSignals(void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old_int_);
  ::sigaction(SIGTERM, &sa, &old_term_);
}

void StopSignals::restore() {
  if (!active_) return;
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
  active_ = false;
}

RunStatus run_jobs(
    std::size_t count, int workers,
    const std::function<nlohmann::json(std::size_t, const std::atomic<bool>&)>& run_job,
    const std::function<bool(std::size_t, const nlohmann::json&)>& on_result, Progress* progress) {
  init_process_control();
  g_interrupted.store(false);
  StopSignals stop(on_interrupt);

  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::pair<std::size_t, nlohmann::json>> finished;
  std::exception_ptr failure;
  std::size_t next = 0;
  bool stop_launching = false;
  int running_workers = 0;

  const auto worker = [&] {
    for (;;) {
      std::size_t job;
      {
        std::lock_guard lock(mu);
        if (stop_launching || failure || g_interrupted.load() || next >= count) break;
        job = next++;
      }
      try {
        nlohmann::json result = run_job(job, g_interrupted);
        std::lock_guard lock(mu);
        finished.emplace_back(job, std::move(result));
      } catch (const GameAborted&) {
        // interrupted: not recorded
      } catch (...) {
        // While the run stops, an error is the stop's doing (the signal also reached the
        // agent's keeper as it started it): not recorded, not a failure of the run.
        std::lock_guard lock(mu);
        if (!failure && !g_interrupted.load()) failure = std::current_exception();
      }
      cv.notify_all();
    }
    std::lock_guard lock(mu);
    --running_workers;
    cv.notify_all();
  };

  const int n_workers =
      std::max(1, std::min<int>(workers, static_cast<int>(std::max<std::size_t>(count, 1))));
  std::vector<std::thread> threads;
  running_workers = n_workers;
  for (int i = 0; i < n_workers; ++i) threads.emplace_back(worker);

  std::size_t done = 0;
  bool stopped = false;
  std::exception_ptr callback_failure;
  {
    std::unique_lock lock(mu);
    for (;;) {
      cv.wait_for(lock, std::chrono::milliseconds(200));
      while (!finished.empty()) {
        auto [job, result] = std::move(finished.front());
        finished.pop_front();
        lock.unlock();
        bool go_on = true;
        try {
          go_on = on_result(job, result);
        } catch (...) {
          if (!callback_failure) callback_failure = std::current_exception();
          go_on = false;
        }
        ++done;
        if (progress) progress->update(done);
        lock.lock();
        if (!go_on) stop_launching = true, stopped = true;
      }
      if (callback_failure || failure) g_interrupted.store(true);  // the run has failed: stop
      if (progress) {
        lock.unlock();
        progress->update(done);
        lock.lock();
      }
      if (running_workers == 0 && finished.empty()) break;
    }
  }
  for (auto& t : threads) t.join();
  if (progress) progress->finish();
  stop.restore();
  reap_all_children();
  if (callback_failure) std::rethrow_exception(callback_failure);
  if (failure) std::rethrow_exception(failure);  // before `interrupted`: the flag was ours
  if (g_interrupted.load()) return RunStatus::interrupted;
  return stopped ? RunStatus::stopped : RunStatus::completed;
}

}  // namespace tactica::harness
