// runner.hpp — many games on N workers: seed lists, shards, the JSON Lines results file (one
// line appended and flushed per finished game), resume, progress, and Ctrl-C that loses nothing.
#pragma once

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tactica::harness {

// Bad user input to the runner (seed list, shard, results file). what() is one line.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "1-30", "1,5,9", "1-10,20-25" -> the seeds in order (duplicates are an error).
std::vector<std::uint64_t> parse_seeds(const std::string& text);

// "K/N" with 1 <= K <= N: this run plays the units u with u % N == K - 1.
struct Shard {
  int k = 1, n = 1;
  bool takes(std::size_t unit) const {
    return static_cast<int>(unit % static_cast<std::size_t>(n)) == k - 1;
  }
};
Shard parse_shard(const std::string& text);

// Text from a file made safe to print: control bytes (C0, DEL, and C1 written as UTF-8) become
// \xNN (C1: \u00NN), so a results file cannot move the cursor or change the terminal.
std::string printable(std::string_view text);

// A results line longer than this is not one tactica wrote (refused with its line number).
inline constexpr std::size_t kMaxResultLineBytes = 65536;

struct ResultsScan {
  std::size_t lines = 0;      // complete lines read (blank ones included)
  std::size_t torn_line = 0;  // line number of a last line without '\n' (0: none)
  std::size_t torn_bytes = 0;
  // "FILE:N: torn last line (B bytes, no newline: a run stopped mid-write) dropped" or empty.
  std::string torn_note(const std::string& path) const;
};

// Streams a JSON Lines results file: `on_line(json, line_number)` for every complete non-blank
// line, one at a time (memory does not grow with the file). A last line without '\n' (a run
// killed mid-write) is not passed on but named in the result. Throws RunError "FILE:LINE: ..."
// on a line that is not JSON, not a result, or longer than kMaxResultLineBytes.
ResultsScan scan_results(const std::string& path,
                         const std::function<void(nlohmann::json&&, std::size_t)>& on_line);

// Appends one line per game and flushes it at once. Holds an exclusive flock on the file from
// construction to destruction: a second run on the same file is refused (RunError).
class ResultsWriter {
 public:
  // resume: append to the file (created if missing); else the file must not exist.
  ResultsWriter(const std::string& path, bool resume);
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;
  // Cuts a torn last line (no '\n') so the next line starts on its own. Call after the file
  // was read and found good.
  void cut_torn_line();
  void append(const nlohmann::json& line);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

// Games done / total with rate and ETA: a redrawn bar on a terminal, a plain line every
// `plain_every` otherwise. Writes to stderr.
class Progress {
 public:
  Progress(std::size_t total, bool tty,
           std::chrono::seconds plain_every = std::chrono::seconds(10));
  void update(std::size_t done, const std::string& note = {});
  void finish();

 private:
  std::size_t total_;
  bool tty_;
  std::chrono::seconds plain_every_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false;
  std::size_t done_ = 0;
  std::string note_;
};

// The number of cores (at least 1) and a warning when `workers` exceeds it (empty otherwise).
int core_count();
std::string workers_warning(int workers);

// The machine's CPU time (clock ticks, every core together) from the "cpu" line of /proc/stat:
// busy = user + nice + system + irq + softirq + steal, total = busy + idle + iowait. nullopt
// when the text has no such line.
struct CpuTimes {
  std::uint64_t busy = 0, total = 0;
};
std::optional<CpuTimes> parse_cpu_times(const std::string& proc_stat);
// How many of `cores` cores were busy between two readings (0 when no time passed).
double busy_cores(const CpuTimes& before, const CpuTimes& after, int cores);
// The busy-machine warning for `busy` of `cores` cores in use by other processes and a run of
// `workers` games at once: given when the others reach `threshold` cores into those the run
// needs (busy >= threshold + the cores it leaves free), empty otherwise. So a sibling shard on
// the cores a run leaves to it is not a warning; anything on a run's own cores is.
// With `during` (e.g. "the run", "step 12"): the same rule, worded for the average load while
// that stretch's games were played.
std::string busy_message(double busy, int cores, int workers, double threshold = 0.5,
                         const std::string& during = {});
// busy_message for this machine before any game is played: /proc/stat read twice, `sample_ms`
// apart (by other processes: none of the run's games has started). Agents on the clock search
// less, and less evenly, on a busy machine. Empty when /proc/stat cannot be read.
std::string busy_warning(int workers, int sample_ms = 250, double threshold = 0.5);
// Cores other processes kept busy between two readings of the machine's CPU time: its busy
// time less `own_cpu_s` seconds of this run's own (this process and its reaped children), per
// second of wall time (the readings' total ticks over the cores), in [0, cores]. 0 when no time
// passed.
double others_cores(const CpuTimes& before, const CpuTimes& after, double own_cpu_s,
                    long ticks_per_s, int cores);
// Other processes' load over a stretch of a run (a tune's step, a whole bench or tourney):
// /proc/stat and getrusage read when it is made and at others(). A game's agent
// is this run's own once its game has ended (its keeper reaped, with every process under it),
// so read it when no game is in flight; games still running would count as other work.
class LoadMeter {
 public:
  LoadMeter();
  // Cores other processes used on average since the start; nullopt when /proc/stat cannot be
  // read or less than `min_seconds` passed (too short to say).
  std::optional<double> others(double min_seconds = 1.0) const;
  // busy_message(during) for others(), or empty (also when it cannot be measured).
  std::string warning(int workers, const std::string& during = "the run",
                      double threshold = 0.5) const;

 private:
  std::optional<CpuTimes> machine_;
  double own_s_ = 0;
};

enum class RunStatus { completed, stopped, interrupted };

// Ctrl-C and SIGTERM go to `handler` from construction until restore() (or destruction), then
// to the handlers they had before.
class StopSignals {
 public:
  explicit StopSignals(void (*handler)(int));
  ~StopSignals() { restore(); }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  void restore();

 private:
  struct sigaction old_int_ {
  }, old_term_{};
  bool active_ = true;
};

// Runs jobs 0..count-1 (in order of index, each on the next free worker). run_job runs on a
// worker thread; it gets the abort flag (set on Ctrl-C) and returns the game's JSON result line,
// or throws GameAborted (not recorded) or anything else (the run stops and it is rethrown).
// on_result runs on the calling thread for each finished job, in finishing order; returning
// false stops launching jobs (those running finish and are reported).
RunStatus run_jobs(
    std::size_t count, int workers,
    const std::function<nlohmann::json(std::size_t, const std::atomic<bool>&)>& run_job,
    const std::function<bool(std::size_t, const nlohmann::json&)>& on_result, Progress* progress);

}  // namespace tactica::harness
