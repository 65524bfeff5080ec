// cmd_bound.cpp — `tactica bound`: the clairvoyant reference score of each Hanpang seed
// (bound/bound.hpp), for `tactica bench --bound FILE`.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>

#include "bound/bound.hpp"
#include "cli/common.hpp"

namespace tactica::cli {
namespace {

struct BoundOptions {
  std::string seeds = "1-30", out, resume;
  int width = 4000;
  int workers = harness::core_count();
  bool no_progress = false;
};

int run_bound(const BoundOptions& o) {
  const auto seeds = harness::parse_seeds(o.seeds);
  const bool resume = !o.resume.empty();
  const std::string path = resume ? o.resume : o.out;
  if (path.empty()) throw harness::RunError("--out FILE is required (or --resume FILE)");
  std::set<std::uint64_t> done;
  if (resume && std::filesystem::exists(path)) {
    for (const auto& [seed, r] : bound::read_bound_file(path)) {
      if (r.width != o.width)
        throw harness::RunError(path + " holds seed " + std::to_string(seed) + " at width " +
                                std::to_string(r.width) + ": resume with --width " +
                                std::to_string(r.width));
      done.insert(seed);
    }
  }
  harness::ResultsWriter writer(path, resume);
  std::vector<std::uint64_t> todo;
  for (auto s : seeds)
    if (!done.count(s)) todo.push_back(s);
  std::fprintf(stderr, "bound: %zu seeds (%zu already done), clairvoyant beam of width %d, on %d "
               "workers, into %s\n", todo.size(), done.size(), o.width, o.workers, path.c_str());
  std::unique_ptr<harness::Progress> progress;
  if (!o.no_progress) progress = std::make_unique<harness::Progress>(todo.size(), ::isatty(2));
  std::int64_t sum = 0;
  const auto status = harness::run_jobs(
      todo.size(), o.workers,
      [&](std::size_t i, const std::atomic<bool>&) {
        return bound::to_json(bound::clairvoyant(todo[i], o.width));
      },
      [&](std::size_t, const nlohmann::json& line) {
        writer.append(line);
        sum += line["reference"].get<std::int64_t>();
        return true;
      },
      progress.get());
  if (status == harness::RunStatus::interrupted) {
    std::fprintf(stderr, "interrupted: continue with: tactica bound --seeds %s --width %d --resume %s\n",
                 o.seeds.c_str(), o.width, path.c_str());
    return 130;
  }
  const auto all = bound::read_bound_file(path);
  std::int64_t total = 0;
  int survived = 0;
  for (auto s : seeds) {
    total += all.at(s).score;
    survived += all.at(s).survived;
  }
  std::printf("bound: seeds %s, width %d: reference sum %lld (mean %.0f per seed), %d/%zu "
              "survived\n", o.seeds.c_str(), o.width, static_cast<long long>(total),
              double(total) / double(seeds.size()), survived, seeds.size());
  std::printf("use it: tactica bench --bound %s --agent ... --seeds %s\n", path.c_str(), o.seeds.c_str());
  return 0;
}

}  // namespace

void register_bound(CLI::App& app, Context& ctx) {
  auto [o, b] = add_command<BoundOptions>(
      app, "bound",
      "Hanpang: a clairvoyant reference score per seed (a wide beam told the true rows), for "
      "bench --bound; analysis only, never an agent");
  b->add_option("-s,--seeds", o->seeds, "seeds (default 1-30)");
  auto* out = b->add_option("-o,--out", o->out, "the reference file to write (JSON Lines, one seed a line)");
  b->add_option("--resume", o->resume, "add the seeds missing from this reference file")->excludes(out);
  b->add_option("--width", o->width, "boards kept after every action (default 4000: about 8 s a seed)")
      ->check(CLI::Range(1, 1000000));
  b->add_option("-j,--workers", o->workers, "seeds searched at once (default: the cores)")
      ->check(CLI::Range(1, 4096));
  b->add_flag("--no-progress", o->no_progress, "no progress bar or progress lines");
  on_run(b, ctx, "bound", o, [](const BoundOptions& opts) {
    try {
      return run_bound(opts);
    } catch (const std::runtime_error& e) {
      if (dynamic_cast<const harness::RunError*>(&e)) throw;
      throw harness::RunError(e.what());
    }
  });
}

}  // namespace tactica::cli
