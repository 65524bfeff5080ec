// exchange.cpp — see exchange.hpp.
#include "judge/exchange.hpp"

#include <cmath>

#include "judge/reply.hpp"

namespace tactica::harness {
namespace {

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double round2(double v) { return std::round(v * 100.0) / 100.0; }

std::string fmt_ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// The last non-empty line of what the agent wrote on stderr, quoted.
std::string last_stderr_line(const std::string& tail) {
  auto end = tail.find_last_not_of("\r\n ");
  if (end == std::string::npos) return {};
  auto start = tail.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return reply::quote(std::string_view(tail).substr(start, end - start + 1), 160);
}

}  // namespace

void GameLog::add(int agent, const char* dir, std::string_view line, Clock::time_point at) {
  if (!enabled_) return;
  log_.push_back({{"t_ms", round2(ms_between(start_, at))},
                  {"agent", agent},
                  {"dir", dir},
                  {"line", reply::quote(line, 200)}});
}
void GameLog::send(int agent, std::string_view line, Clock::time_point at) {
  add(agent, "send", line, at);
}
void GameLog::recv(int agent, std::string_view line, Clock::time_point at) {
  add(agent, "recv", line, at);
}

std::string stopped_detail(Seat& seat, const std::string& what) {
  auto& p = *seat.proc;
  p.wait_exit(std::chrono::milliseconds(50));
  p.drain_stderr();
  std::string d = what;
  if (p.exit_status()) d += " (" + p.exit_status()->describe() + ")";
  if (p.sample().oom_kills > 0)  // the kernel ended it at the cgroup's memory limit
    d = "memory: over the " + std::to_string(p.limits().memory_bytes >> 20) +
        " MiB limit, the kernel's OOM killer ended a process; " + d;
  const std::string err = last_stderr_line(p.stderr_tail());
  if (!err.empty()) d += "; stderr: '" + err + "'";
  return d;
}

Fault tree_check(Seat& seat, const Limits& limits, const Process::Sample& s) {
  if (s.oom_kills > 0)
    return {seat.index, "RUNTIME_ERROR",
            "memory: over the " + std::to_string(limits.process.memory_bytes >> 20) +
                " MiB limit, the kernel's OOM killer ended " + std::to_string(s.oom_kills) +
                " process(es) of the agent"};
  if (s.task_cap_hits > 0)
    return {seat.index, "RUNTIME_ERROR",
            "more than " + std::to_string(limits.process.max_processes) +
                " processes: the cgroup's cap of " + std::to_string(limits.process.max_tasks()) +
                " tasks refused " + std::to_string(s.task_cap_hits) + " fork(s) or thread(s)"};
  if (s.processes > limits.process.max_processes)
    return {seat.index, "RUNTIME_ERROR",
            "more than " + std::to_string(limits.process.max_processes) + " processes (" +
                std::to_string(s.processes) + " alive)"};
  if (limits.process.memory_bytes && s.rss_bytes > limits.process.memory_bytes)
    return {seat.index, "RUNTIME_ERROR",
            "memory: " + std::to_string(s.rss_bytes >> 20) + " MiB resident, over the " +
                std::to_string(limits.process.memory_bytes >> 20) + " MiB limit"};
  return {};
}

Fault process_check(Seat& seat, const Limits& limits, bool answered) {
  const auto s = seat.proc->sample();
  if (Fault f = tree_check(seat, limits, s)) return f;
  if (!answered && !s.leader_alive)
    return {seat.index, "RUNTIME_ERROR", stopped_detail(seat, "exited before answering")};
  return {};
}

bool notify(Seat& seat, std::string_view line, GameLog& log) {
  const auto now = Clock::now();
  log.send(seat.index, line, now);
  return seat.proc->write_line(line, now + std::chrono::seconds(1)) == Process::WriteStatus::ok;
}

Answer exchange(Seat& seat, std::string_view command, GameLog& log, const Limits& limits,
                const GameControl& control, const TickCheck& check) {
  Answer a;
  Process& p = *seat.proc;
  if (control.abort && control.abort->load()) throw GameAborted();
  p.drain_stderr();
  const std::string cmd(command);
  if (auto extra = p.take_unsolicited_output(); !extra.empty()) {
    log.recv(seat.index, extra, Clock::now());
    a.fault = {seat.index, "INVALID",
               "output before the command '" + cmd + "' was sent: '" + reply::quote(extra) + "'"};
    return a;
  }
  const auto t0 = Clock::now();
  const auto deadline = t0 + std::chrono::microseconds(
                                 static_cast<long long>((seat.bank_ms + limits.grace_ms) * 1000));
  log.send(seat.index, command, t0);
  switch (p.write_line(command, deadline)) {
    case Process::WriteStatus::ok:
      break;
    case Process::WriteStatus::closed:
      a.fault = {seat.index, "RUNTIME_ERROR", stopped_detail(seat, "closed its input")};
      return a;
    case Process::WriteStatus::timeout:
      a.fault = {seat.index, "TIME_LIMIT",
                 "did not take the command '" + cmd + "' within the bank"};
      return a;
  }

  Fault tick_fault;
  bool interrupted = false;
  const auto r = p.read_line(deadline, limits.tick, [&] {
    if (control.abort && control.abort->load()) {
      interrupted = true;
      return false;
    }
    tick_fault = check ? check(false) : Fault{};
    return !tick_fault;
  });
  a.elapsed_ms = ms_between(t0, r.at);
  const std::string bank = fmt_ms(seat.bank_ms);
  switch (r.kind) {
    case Process::Read::aborted:
      if (interrupted) throw GameAborted();
      a.fault = tick_fault;
      return a;
    case Process::Read::timeout:
      a.elapsed_ms = ms_between(t0, Clock::now());
      a.fault = {seat.index, "TIME_LIMIT",
                 "no answer to '" + cmd + "' within the bank (" + bank + " ms left)"};
      return a;
    case Process::Read::eof:
      a.elapsed_ms = ms_between(t0, Clock::now());
      if (!r.text.empty()) log.recv(seat.index, r.text, Clock::now());
      a.fault = {seat.index, "RUNTIME_ERROR",
                 stopped_detail(seat, "ended its output before answering '" + cmd + "'")};
      return a;
    case Process::Read::overlong:
      log.recv(seat.index, r.text, r.at);
      if (a.elapsed_ms >= seat.bank_ms)
        a.fault = {
            seat.index, "TIME_LIMIT",
            "answer to '" + cmd + "' took " + fmt_ms(a.elapsed_ms) + " ms, " + bank + " ms left"};
      else
        a.fault = {seat.index, "INVALID",
                   "answer to '" + cmd + "' is a line longer than " +
                       std::to_string(kMaxLineBytes) + " bytes"};
      return a;
    case Process::Read::line:
      break;
  }
  // Best effort (docs/HARNESS.md): the command's bytes still unread right after the answer
  // arrived. An agent that answers first and reads at once is not caught; nothing can see that.
  const int unread = p.unread_input();
  log.recv(seat.index, r.text, r.at);
  if (a.elapsed_ms >= seat.bank_ms) {
    a.fault = {
        seat.index, "TIME_LIMIT",
        "answer to '" + cmd + "' took " + fmt_ms(a.elapsed_ms) + " ms, " + bank + " ms left"};
    return a;
  }
  if (auto bad = reply::check_bytes(r.text); !bad.empty()) {
    a.fault = {seat.index, "INVALID", "answer '" + reply::quote(r.text) + "': " + bad};
    return a;
  }
  if (check)
    if (Fault f = check(true)) {
      a.fault = f;
      return a;
    }
  if (unread > 0) {
    a.fault = {seat.index, "INVALID",
               "answered '" + reply::quote(r.text) + "' before reading the command '" + cmd +
                   "' (" + std::to_string(unread) + " bytes unread)"};
    return a;
  }
  a.line = r.text;
  return a;
}

}  // namespace tactica::harness
