# The root CMakeLists.txt of the scaffold test's tree (tests/scaffold/scaffold_e2e.sh): core/ and
# cmake/ are links to the real checkout, plugins/ holds only what `tactica new-plugin` wrote. The
# plugins are built exactly as the project builds them (tactica_add_plugin), with -Werror, and the
# project's conformance suite is built over their static table.
cmake_minimum_required(VERSION 3.25)
project(tactica_scaffold_check LANGUAGES CXX)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
set(TACTICA_PLUGIN_OUTPUT_DIR ${PROJECT_BINARY_DIR}/plugins)
set(TACTICA_BUILD_TESTS ON)
include(cmake/TacticaOptions.cmake)
include(cmake/TacticaDependencies.cmake)
add_subdirectory(core)
add_subdirectory(plugins)
include(cmake/TacticaStaticPlugins.cmake)
get_property(_plugins GLOBAL PROPERTY TACTICA_PLUGINS)
foreach(p IN LISTS _plugins)
  target_compile_options(tactica_${p}_impl PRIVATE -Werror)
  target_compile_options(tactica_${p} PRIVATE -Werror)
endforeach()
add_executable(conformance ${TACTICA_TESTS}/doctest_main.cpp
  ${TACTICA_TESTS}/plugins_conformance/conformance_test.cpp)
target_link_libraries(conformance PRIVATE doctest::doctest tactica::static_plugins tactica::core
  tactica::options)
target_compile_definitions(conformance PRIVATE TACTICA_CONFORMANCE_MIN_PLUGINS=1)
