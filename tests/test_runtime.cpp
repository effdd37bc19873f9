#include <doctest/doctest.h>

#include "fixture.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/profile.hpp"

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
  CHECK(test::runtime().tuning().value("work_group_size") <= chosen.max_work_group_size);
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

TEST_CASE("transfers through page-locked staging: one chunk, two slots, many chunks, offsets") {
  auto& rt = test::runtime();
  // Around the thresholds: direct below 1 MiB, 8 MiB chunks double-buffered in two slots.
  const std::vector<std::size_t> sizes = {0, 77, (1 << 18) + 3, (1 << 21) + 5, (5 << 20) + 11};
  for (bool pinned : {false, true}) {
    CAPTURE(pinned);
    test::ScopedTuning tuning;
    tuning->set("pinned_transfers", pinned);
    for (std::size_t n : sizes) {
      CAPTURE(n);
      auto values = test::random_values<std::int32_t>(n, 7 + n, -1000000, 1000000);
      Profile profile;
      auto array = DeviceArray<std::int32_t>::upload(rt, values, &profile);
      CHECK(array.download(rt, &profile) == values);
      // one DMA each way per 8 MiB chunk when staged (2^21 + 5 ints: two chunks), else one
      const std::size_t bytes = n * sizeof(std::int32_t);
      const std::size_t dmas = n == 0 ? 0
                               : pinned && bytes >= (std::size_t(1) << 20)
                                   ? (bytes + (std::size_t(8) << 20) - 1) / (std::size_t(8) << 20)
                                   : 1;
      CHECK(profile.launches("upload") == dmas);
      CHECK(profile.launches("download") == dmas);
    }
    // a part of a buffer, from an offset, staged or not
    const std::size_t n = (3 << 20) + 1;
    auto values = test::random_values<std::int32_t>(n, 3, -5, 5);
    DeviceArray<std::int32_t> array(rt, n + 100);
    detail::write_buffer(rt, array.buffer(), values.data(), n * 4, nullptr, 100 * 4);
    std::vector<std::int32_t> back(n);
    detail::read_buffer(rt, array.buffer(), back.data(), n * 4, nullptr, 100 * 4);
    CHECK(back == values);
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
