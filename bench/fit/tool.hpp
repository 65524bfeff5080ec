// bench/fit/tool.hpp — what the analysis tools (tactica-ice-fit, tactica-ice-probe,
// tactica-hanpang-fit) share: bad input as one line and exit 2 before any work, option values,
// seed sets read as every tactica command reads them, CSV rows of numbers written and read, the
// held-out split, and seeds played on worker threads with a progress line.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runner/runner.hpp"

namespace tactica::fit {

// The tool's name, the first word of every error line (set once, first thing in main).
inline const char*& tool_name() {
  static const char* name = "tactica";
  return name;
}

// Bad input: one line naming the problem on stderr, exit 2.
[[noreturn]] inline void die(const std::string& msg) {
  std::fprintf(stderr, "%s: %s\n", tool_name(), msg.c_str());
  std::exit(2);
}

// The value of option `opt` as a whole number of at least `least`, or die naming both.
inline long long whole_number(const std::string& opt, const std::string& v, long long least = 0) {
  try {
    std::size_t used = 0;
    const long long x = std::stoll(v, &used);
    if (used != v.size() || x < least) throw std::invalid_argument(v);
    return x;
  } catch (const std::exception&) {
    die(opt + " '" + v + "': expected a whole number >= " + std::to_string(least));
  }
}

// "LO-HI" as two whole numbers (the bounds are the caller's to check), or die with `example`.
inline std::pair<int, int> whole_range(const std::string& opt, const std::string& v, const char* example) {
  const auto dash = v.find('-');
  if (dash == std::string::npos) die(opt + " '" + v + "': expected a range like " + example);
  return {static_cast<int>(whole_number(opt, v.substr(0, dash))),
          static_cast<int>(whole_number(opt, v.substr(dash + 1)))};
}

// A seed set as every tactica command reads it (harness::parse_seeds), or die.
inline std::vector<std::uint64_t> seed_set(const std::string& what, const std::string& s) {
  try {
    return harness::parse_seeds(s);
  } catch (const harness::RunError& e) {
    die(what + ": " + e.what());
  }
}

// The rows of a CSV this tool wrote (a header line, then `columns` numbers a line), or die
// naming the file (and the line) for `--from`.
inline std::vector<std::vector<double>> read_csv(const std::string& path, std::size_t columns) {
  std::ifstream in(path);
  if (!in) die("--from " + path + ": cannot read it (give a CSV this tool wrote with --out)");
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<double>> rows;
  int lineno = 1;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    std::stringstream s(line);
    std::string cell;
    std::vector<double> v;
    while (std::getline(s, cell, ',')) v.push_back(std::atof(cell.c_str()));
    if (v.size() != columns)
      die("--from " + path + ":" + std::to_string(lineno) + ": expected " + std::to_string(columns) +
          " columns (a CSV of another version? write it again with --out)");
    rows.push_back(std::move(v));
  }
  return rows;
}

// The CSV that --out names, opened before any game (a path that cannot be written loses no
// work), or die; closed if there is no --out. --out with --from is refused.
inline std::ofstream open_out(const std::string& out, bool from_given) {
  std::ofstream f;
  if (out.empty()) return f;
  if (from_given) die("--out writes the positions played: give it with --seeds, not --from");
  f.open(out);
  if (!f) die("--out " + out + ": cannot write it (check the directory)");
  return f;
}

// Writes rows to f as read_csv reads them: a header "lead,target,names...", then per row
// lead(f, row) (its leading columns, comma-separated), its target and every term of row.x, at
// f's precision.
template <class Row, class Names, class Lead>
void write_csv(std::ofstream& f, const std::string& out, const std::string& lead_header,
               const Names& names, const std::vector<Row>& rows, Lead lead) {
  f << lead_header << ",target";
  for (const char* n : names) f << ',' << n;
  f << '\n';
  for (const auto& r : rows) {
    lead(f, r);
    f << ',' << r.target;
    for (double x : r.x) f << ',' << x;
    f << '\n';
  }
  f.close();
  if (!f) die("--out " + out + ": cannot write it (disk full?)");
}

// The rows `keep` accepts, split by seed: those of a seed in holdout to test, the rest to train.
template <class Row, class Keep>
void split_holdout(const std::vector<Row>& rows, const std::vector<std::uint64_t>& holdout, Keep keep,
                   std::vector<const Row*>& train, std::vector<const Row*>& test) {
  for (const auto& r : rows)
    if (keep(r))
      (std::find(holdout.begin(), holdout.end(), r.seed) != holdout.end() ? test : train).push_back(&r);
}

// play(i) for every i < n on `jobs` threads, with "seeds d/n" on stderr as they finish.
template <class Play>
void play_seeds(std::size_t n, int jobs, Play play) {
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex io;
  auto work = [&] {
    for (std::size_t i; (i = next++) < n;) {
      play(i);
      const auto d = ++done;
      std::lock_guard<std::mutex> g(io);
      std::fprintf(stderr, "\rseeds %zu/%zu", d, n);
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < std::max(1, jobs); ++j) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  std::fprintf(stderr, "\n");
}

}  // namespace tactica::fit
