# All dependencies come from Debian packages (see scripts/setup.sh); none is downloaded.
find_package(Threads REQUIRED)
find_package(Boost 1.74 REQUIRED)            # headers only: Boost.DLL with BOOST_DLL_USE_STD_FS
find_package(tomlplusplus 3 REQUIRED)        # libtomlplusplus-dev
find_package(CLI11 2 REQUIRED)               # libcli11-dev
find_package(nlohmann_json 3 REQUIRED)       # nlohmann-json3-dev
if(TACTICA_BUILD_TESTS)
  find_package(doctest 2.4 REQUIRED)         # doctest-dev
endif()
if(TACTICA_BUILD_BENCH)
  find_package(benchmark 1.7 REQUIRED)       # libbenchmark-dev
endif()
