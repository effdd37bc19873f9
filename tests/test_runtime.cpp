#include <doctest/doctest.h>

#include "fixture.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"

using namespace treefix;

TEST_CASE("devices are listed and the test runtime is one of them") {
  auto devices = list_devices();
  REQUIRE_FALSE(devices.empty());
  const auto& chosen = test::runtime().description();
  bool found = false;
  for (auto& d : devices)
    found |= d.platform_index == chosen.platform_index && d.device_index == chosen.device_index;
  CHECK(found);
  CHECK(chosen.max_work_group_size >= 1);
  CHECK(test::runtime().tuning().work_group_size <= chosen.max_work_group_size);
}

TEST_CASE("device selection by words that match nothing names the devices present") {
  try {
    Runtime r("no-such-device-xyz");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("no OpenCL device matches") != std::string::npos);
  }
}

TEST_CASE("a build failure carries the OpenCL error name and the build log") {
  try {
    test::runtime().program_from_source("broken.cl", "kernel void k(global int* x) { x[0] = y; }");
    FAIL("expected a build error");
  } catch (const DeviceError& e) {
    CHECK(e.code() == CL_BUILD_PROGRAM_FAILURE);
    CHECK(std::string(e.what()).find("CL_BUILD_PROGRAM_FAILURE") != std::string::npos);
    CHECK_FALSE(e.build_log().empty());
  }
}

TEST_CASE("programs are built once per source and options") {
  auto& rt = test::runtime();
  const char* src = "kernel void twice(global int* x) { x[get_global_id(0)] *= 2; }";
  rt.program_from_source("twice.cl", src);
  auto before = rt.programs_built();
  rt.program_from_source("twice.cl", src);
  CHECK(rt.programs_built() == before);
  rt.program_from_source("twice.cl", src, "-DUNUSED=1");
  CHECK(rt.programs_built() == before + 1);
}

TEST_CASE("arrays round-trip through the device, including empty ones") {
  auto& rt = test::runtime();
  for (std::size_t n : {0, 1, 1000}) {
    auto values = test::random_values<std::int64_t>(n, n, -1000000, 1000000);
    auto array = DeviceArray<std::int64_t>::upload(rt, values);
    CHECK(array.download(rt) == values);
  }
}

TEST_CASE("requests larger than the device are refused with the numbers") {
  auto& rt = test::runtime();
  auto huge = rt.description().global_mem_bytes * 2;
  try {
    rt.require_fits("a test array", huge, huge);
    FAIL("expected a CapacityError");
  } catch (const CapacityError& e) {
    CHECK(std::string(e.what()).find("MiB") != std::string::npos);
  }
}
