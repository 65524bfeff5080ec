// registry.hpp — the one way to obtain a strategy: a PluginEntry names a plugin's three functions
// (strategy.hpp), a StrategyRegistry holds entries by name, make_strategy calls a factory. The
// Boost.DLL loader makes a module's entry from its symbols (core/host/loader.cpp); the static
// table (static_plugins.hpp), a static agent (core/host/linked_loader.cpp) and a fused main.cpp
// add the plugins linked in. Standard library only (it goes into fused submissions).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "tactica/strategy.hpp"

namespace tactica {

// A plugin could not be found, loaded or used; the message says what was looked for, where,
// and what was found instead.
struct PluginError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A plugin's entry points, under the name it is asked for by ("beam").
struct PluginEntry {
  std::string name;
  DescribeFn* describe = nullptr;
  MakeHanpangFn* make_hanpang = nullptr;
  MakeIcebreakingFn* make_icebreaking = nullptr;
};

// Declares the three functions of plugin `ns` (plugins/<ns>/plugin.hpp holds just this line):
// describe, make_hanpang and make_icebreaking in namespace tactica::plugins::ns, with the
// signatures of strategy.hpp's DescribeFn, MakeHanpangFn and MakeIcebreakingFn.
#define TACTICA_PLUGIN_API(ns)                 \
  namespace tactica::plugins::ns {             \
  ::tactica::DescribeFn describe;              \
  ::tactica::MakeHanpangFn make_hanpang;       \
  ::tactica::MakeIcebreakingFn make_icebreaking; \
  }

// The entry of the plugin linked in from namespace tactica::plugins::<ns> (a macro, so that `ns`
// may itself be a macro).
#define TACTICA_PLUGIN_ENTRY(ns) TACTICA_PLUGIN_ENTRY_IMPL(ns)
#define TACTICA_PLUGIN_ENTRY_IMPL(ns)                                              \
  ::tactica::PluginEntry {                                                         \
#ns, &::tactica::plugins::ns::describe, &::tactica::plugins::ns::make_hanpang, \
        &::tactica::plugins::ns::make_icebreaking                                  \
  }

class StrategyRegistry {
 public:
  // `holder` names the registry in errors: "linked into tactica-arena".
  explicit StrategyRegistry(std::string holder = "registered") : holder_(std::move(holder)) {}

  // Adds a plugin; throws PluginError if its name is empty or taken, or an entry point is missing.
  void add(PluginEntry entry) {
    if (entry.name.empty()) throw PluginError("a plugin entry without a name");
    if (!entry.describe || !entry.make_hanpang || !entry.make_icebreaking)
      throw PluginError("plugin '" + entry.name + "': an entry point is missing");
    if (find(entry.name))
      throw PluginError("plugin '" + entry.name + "' is " + holder_ +
                        " twice: each name may be added once");
    entries_.push_back(std::move(entry));
  }

  const PluginEntry* find(std::string_view name) const {
    for (const auto& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }
  // The plugin `name`; throws PluginError naming the plugins there are.
  const PluginEntry& get(std::string_view name) const {
    if (const PluginEntry* e = find(name)) return *e;
    throw PluginError("no plugin '" + std::string(name) + "' " + holder_ +
                      (entries_.empty() ? "; there is none" : "; there is: " + names()));
  }

  // "beam, greedy", in the order added.
  std::string names() const {
    std::string s;
    for (const auto& e : entries_) s += (s.empty() ? "" : ", ") + e.name;
    return s;
  }
  const std::string& holder() const { return holder_; }
  std::size_t size() const { return entries_.size(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

 private:
  std::string holder_;
  std::vector<PluginEntry> entries_;
};

namespace detail {
// Calls a factory: its exceptions and a null result become PluginError naming the plugin.
template <class Strategy, class Factory>
std::unique_ptr<Strategy> make_checked(Factory* make, const Params& params, const std::string& name,
                                       const char* game) {
  std::unique_ptr<Strategy> s;
  try {
    s = make(params);
  } catch (const std::exception& e) {
    throw PluginError("plugin '" + name + "' could not make its " + game +
                      " strategy: " + e.what());
  }
  if (!s) throw PluginError("plugin '" + name + "' made no " + game + " strategy (null)");
  return s;
}
}  // namespace detail

// Builds a strategy (HanpangStrategy or IcebreakingStrategy) with the entry's factory; throws
// PluginError if it throws or makes none.
template <class Strategy>
std::unique_ptr<Strategy> make_strategy(const PluginEntry& e, const Params& params) {
  if constexpr (std::is_same_v<Strategy, HanpangStrategy>)
    return detail::make_checked<Strategy>(e.make_hanpang, params, e.name, "hanpang");
  else
    return detail::make_checked<Strategy>(e.make_icebreaking, params, e.name, "icebreaking");
}

}  // namespace tactica
