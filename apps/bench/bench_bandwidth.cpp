// treefix-bench bandwidth: device-to-device copy bandwidth through OpenCL (clEnqueueCopyBuffer),
// counting bytes read plus bytes written: the ceiling that the bandwidth floors of the other
// suites divide by. Median over repeats after warm-up.
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "bench.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::bench {
namespace {

void setup(CLI::App& app) {
  auto mib = std::make_shared<std::size_t>(1024);
  auto repeats = std::make_shared<int>(20);
  auto csv = std::make_shared<std::string>();
  auto device = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("bandwidth", "Device-to-device copy bandwidth (read + write bytes)");
  cmd->add_option("--mib", *mib, "buffer size in MiB")->capture_default_str();
  cmd->add_option("--repeats", *repeats, "timed copies")->capture_default_str();
  cmd->add_option("--csv", *csv, "write the result as CSV here");
  cmd->add_option("--device", *device, "device spec");
  cmd->callback([=] {
    Runtime rt(*device);
    std::size_t bytes = std::min<std::size_t>(*mib << 20, rt.description().max_alloc_bytes);
    cl::Buffer a = rt.allocate(bytes, "copy source"), b = rt.allocate(bytes, "copy target");
    translate_device_errors("bandwidth", [&] {
      rt.queue().enqueueFillBuffer(a, cl_uint(0x5a5a5a5a), 0, bytes);
      std::vector<double> gbs;
      for (int r = 0; r < *repeats + 3; ++r) {
        Profile p;
        cl::Event e;
        rt.queue().enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &e);
        p.record("copy", e);
        double ms = p.milliseconds("copy");
        if (r >= 3) gbs.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);
      }
      double m = median(gbs);
      std::time_t now = std::time(nullptr);
      char date[32];
      std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
      std::cout << "# device: " << rt.description().device_name << " | driver: "
                << rt.description().driver_version << " | date: " << date << "\n"
                << "copy of " << (bytes >> 20) << " MiB: " << std::fixed << std::setprecision(1)
                << m << " GB/s (read + write), median of " << *repeats << "\n";
      if (!csv->empty()) {
        std::ofstream out(*csv);
        out << "device,driver,date,bytes,copy_gbs\n\"" << rt.description().device_name << "\",\""
            << rt.description().driver_version << "\"," << date << ',' << bytes << ',' << m << "\n";
      }
    });
  });
}

TREEFIX_BENCH("bandwidth", setup);

}  // namespace
}  // namespace treefix::bench
