# Static-link mode (issue 6): tactica-agent-<game>-<plugin>, one executable per game and plugin,
# with the plugin linked in (no Boost.DLL, no dlopen) and linked with -static, for local runs and
# for machines without the build's shared libraries.
#
# Each is tactica-agent itself: core/host/main.cpp, config.cpp and plugin.cpp (toml++ compiled in, header-only,
# as Debian ships no static libtomlplusplus) with core/host/linked_loader.cpp in place of
# loader.cpp. So it takes the same flags (--config FILE, --set key=value, --check, --verbose) and
# checks a config the same way; the config's game and strategy must be the ones linked in
# (--plugin-dir is accepted and ignored).
#
#   build/<preset>/bin/tactica-agent-hanpang-beam --config configs/hanpang/beam.toml
option(TACTICA_STATIC_AGENTS "Build tactica-agent-<game>-<plugin> (plugin linked in, -static)" ON)

if(TACTICA_STATIC_AGENTS AND TARGET tactica-agent)
  # main.cpp, config.cpp and plugin.cpp once for all of them.
  add_library(tactica_static_agent_main OBJECT
    ${PROJECT_SOURCE_DIR}/core/host/main.cpp ${PROJECT_SOURCE_DIR}/core/host/config.cpp
    ${PROJECT_SOURCE_DIR}/core/host/plugin.cpp)
  target_include_directories(tactica_static_agent_main PRIVATE ${PROJECT_SOURCE_DIR}/core/host/include)
  get_target_property(_toml_includes tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(tactica_static_agent_main SYSTEM PRIVATE ${_toml_includes})
  target_compile_definitions(tactica_static_agent_main PRIVATE TOML_HEADER_ONLY=1)
  target_link_libraries(tactica_static_agent_main PRIVATE tactica::core tactica::options)

  get_property(_tactica_plugins GLOBAL PROPERTY TACTICA_PLUGINS)
  foreach(p IN LISTS _tactica_plugins)
    foreach(game hanpang icebreaking)
      set(_exe tactica-agent-${game}-${p})
      add_executable(${_exe} ${PROJECT_SOURCE_DIR}/core/host/linked_loader.cpp
                             $<TARGET_OBJECTS:tactica_static_agent_main>)
      target_include_directories(${_exe} PRIVATE ${PROJECT_SOURCE_DIR}/core/host/include)
      target_compile_definitions(${_exe} PRIVATE
        TACTICA_LINKED_GAME=${game} TACTICA_LINKED_PLUGIN=${p}
        TACTICA_LINKED_HEADER="${p}/plugin.hpp" TACTICA_LINKED_EXE="${_exe}")
      target_link_libraries(${_exe} PRIVATE tactica_${p}_impl tactica::core tactica::options)
      # The sanitizers' runtimes cannot be linked statically: such builds link dynamically.
      if(NOT TACTICA_SANITIZE)
        target_link_options(${_exe} PRIVATE -static)
      endif()
      list(APPEND TACTICA_STATIC_AGENT_TARGETS ${_exe})
    endforeach()
  endforeach()
  add_custom_target(tactica_static_agents DEPENDS ${TACTICA_STATIC_AGENT_TARGETS})
endif()
