// treefix-bench bandwidth: device-to-device copy bandwidth through OpenCL (clEnqueueCopyBuffer),
// counting bytes read plus bytes written: the ceiling that the bandwidth floors of the other
// suites divide by. Median over repeats after warm-up.
#include <iostream>
#include <memory>

#include "bench.hpp"
#include "treefix/core/launch.hpp"

namespace treefix::bench {
namespace {

struct Args {
  CommonOptions common{"", "", 20, 3};
  std::size_t mib = 1024;
};

void run(Session& session, const Args& args) {
  Runtime& rt = session.runtime;
  const std::size_t bytes = std::min<std::size_t>(args.mib << 20, rt.description().max_alloc_bytes);
  cl::Buffer a = rt.allocate(bytes, "copy source"), b = rt.allocate(bytes, "copy target");
  fill(rt, a, cl_uint(0x5a5a5a5a), bytes / sizeof(cl_uint));
  std::vector<double> gbs;
  translate_device_errors("bandwidth", [&] {
    for (int r = 0; r < args.common.warmup + args.common.repeats; ++r) {
      Profile p;
      cl::Event e;
      rt.queue().enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &e);
      p.record("copy", e);
      double ms = p.milliseconds("copy");
      if (r >= args.common.warmup) gbs.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);
    }
  });
  Table table({"bytes", "copy_gbs"});
  table.add({std::to_string(bytes), cell(median(gbs), 1)});
  std::cout << "# copy bandwidth (read + write bytes), median of " << args.common.repeats << "\n";
  session.report({&table});
}

void add_options(CLI::App* suite, Args& o) {
  add_setting(suite, "--mib", o.mib, "buffer size in MiB");
}

TREEFIX_BENCH("bandwidth", "Device-to-device copy bandwidth (read + write bytes)", run,
              add_options);

}  // namespace
}  // namespace treefix::bench
