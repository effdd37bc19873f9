// treefix-bench treefix: the Euler-tour treefix on stars, caterpillars and random trees of
// 2^min..2^max vertices. Per size: Write, Scan and Read compute times (OpenCL profiling events),
// transfer times (tour + weights up, result down), host tour construction, and the sequential CPU
// time; medians over --repeats runs after --warmup runs.
#include <chrono>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "bench.hpp"
#include "cli_options.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::bench {
namespace {

struct Args : TreeSizes {
  CommonOptions common{"", "", 10, 2};
  std::string forms = "three,fused";
  ValueType type = ValueType::float32;
  Precision precision = Precision::accurate;
};

ParentArray make(const std::string& shape, std::size_t n) { return generate::tree(shape, n); }

template <class T>
void run(Session& session, const Args& args) {
  Runtime& rt = session.runtime;
  std::cout << "# " << args.fix << ", type " << to_string(args.type) << ", medians of "
            << args.common.repeats << " runs after " << args.common.warmup
            << " warm-up runs; times in ms\n";
  Table table({"shape", "n", "type", "fix", "form", "precision", "write_ms", "scan_ms", "read_ms",
               "permute_ms", "compute_ms", "upload_ms", "download_ms", "host_tour_ms",
               "sequential_ms", "speedup_compute"});
  const bool root = parse_fix(args.fix) == Fix::root;
  for (const std::string& shape : split(args.shapes)) {
    for (int lg = args.min_log; lg <= args.max_log; ++lg) {
      const std::size_t n = std::size_t(1) << lg;
      ParentArray parent = make(shape, n);
      std::vector<T> w(n);
      for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<T>(1 + (i * 7919) % 13);
      std::vector<double> write_ms, scan_ms, read_ms, permute_ms, compute_ms, up_ms, down_ms,
          tour_ms, seq_ms;
      auto order = top_down_order(parent);
      EulerTour host_tour;
      std::vector<T> ref;
      for (int rep = 0; rep < 3; ++rep) {  // host parts: slow at large n, stable: 3 runs
        tour_ms.push_back(host_ms([&] { host_tour = build_euler_tour(parent); }));
        seq_ms.push_back(host_ms([&] {
          ref = root ? reference::rootfix(parent, order, w, Op::sum, false)
                     : reference::leaffix(parent, order, w, Op::sum, false);
        }));
      }
      DeviceTree tree(rt, parent);
      for (const std::string& form : split(args.forms)) {
        write_ms.clear();
        scan_ms.clear();
        read_ms.clear();
        permute_ms.clear();
        compute_ms.clear();
        up_ms.clear();
        down_ms.clear();
        for (int rep = 0; rep < args.common.warmup + args.common.repeats; ++rep) {
          Profile profile;
          TreefixOptions options{Op::sum, false, Algorithm::euler, &profile};
          options.precision = args.precision;
          if (form == "three")
            options.euler_kernels = EulerKernels::three;
          else if (form != "fused")
            throw InputError("unknown form '" + form + "' (three, fused)");
          DeviceEulerTour device_tour(rt, host_tour, &profile);  // the transfer a first call pays
          auto weights = DeviceArray<T>::upload(rt, w, &profile);
          DeviceArray<T> result(rt, n);
          tree.euler_tour(nullptr);
          if (root)
            rootfix(rt, tree, weights, result, options);
          else
            leaffix(rt, tree, weights, result, options);
          auto out = result.download(rt, &profile);
          if (rep == 0 && out != ref)  // small integer weights: every sum is exact
            throw Error("benchmark result differs from the reference (" + shape +
                        ", n=" + std::to_string(n) + ")");
          if (rep < args.common.warmup) continue;
          write_ms.push_back(profile.milliseconds("write"));
          scan_ms.push_back(profile.milliseconds("scan"));
          read_ms.push_back(profile.milliseconds("read"));
          permute_ms.push_back(profile.milliseconds("permute"));
          // every kernel of the call: write, scan, read, permutations, an exact format's fitting
          compute_ms.push_back(write_ms.back() + scan_ms.back() + read_ms.back() +
                               permute_ms.back() + profile.milliseconds("exact range"));
          up_ms.push_back(profile.milliseconds("upload"));
          down_ms.push_back(profile.milliseconds("download"));
        }
        double wr = median(write_ms), sc = median(scan_ms), rd = median(read_ms);
        double compute = median(compute_ms), seq = median(seq_ms);
        table.add({shape, std::to_string(n), to_string(args.type), args.fix, form,
                   to_string(args.precision), cell(wr), cell(sc), cell(rd),
                   cell(median(permute_ms)), cell(compute), cell(median(up_ms)),
                   cell(median(down_ms)), cell(median(tour_ms)), cell(seq),
                   cell(seq / compute, 1)});
        std::cerr << "  done " << shape << " " << form << " n=" << n << "\n";
      }
    }
  }
  session.report({&table});
}

void run_any_type(Session& session, const Args& args) {
  visit_value_type(args.type, [&](auto value) { run<decltype(value)>(session, args); });
}

void add_options(CLI::App* suite, Args& o) {
  add_tree_size_options(suite, o, "star,caterpillar,path,random");
  cli::add_enum_option(suite, "--type", o.type, "value type");
  add_setting(suite, "--forms", o.forms,
              "comma list of Euler-tour forms: three (Write/Scan/Read), fused");
  cli::add_enum_option(suite, "--precision", o.precision, "floating-point sums: accurate or fast");
}

TREEFIX_BENCH("treefix", "Euler-tour treefix: Write/Scan/Read vs sequential CPU", run_any_type,
              add_options);

}  // namespace
}  // namespace treefix::bench
