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
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::bench {
namespace {

struct Args {
  int min_log = 15, max_log = 24, repeats = 10, warmup = 2;
  std::string shapes = "star,caterpillar,random", type = "float", fix = "rootfix", csv, device;
  std::string forms = "three,fused";
  bool accurate = false;
};


ParentArray make(const std::string& shape, std::size_t n) {
  if (shape == "star") return generate::star(n);
  if (shape == "caterpillar") return generate::caterpillar(n, n / 2);
  if (shape == "path") return generate::path(n);
  if (shape == "random") return generate::random_recursive(n, n);
  throw InputError("unknown shape '" + shape + "' (star, caterpillar, path, random)");
}

template <class T>
void run(const Args& args) {
  Runtime rt(args.device);
  const auto& d = rt.description();
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  std::cout << "# device: " << d.device_name << " | platform: " << d.platform_name
            << " | driver: " << d.driver_version << " | date: " << date << "\n"
            << "# " << args.fix << ", type " << args.type << ", medians of " << args.repeats
            << " runs after " << args.warmup << " warm-up runs; times in ms\n";
  std::ofstream csv;
  if (!args.csv.empty()) {
    csv.open(args.csv);
    csv << "device,driver,date,shape,n,type,fix,form,accurate,write_ms,scan_ms,read_ms,compute_ms,upload_ms,"
           "download_ms,host_tour_ms,sequential_ms,speedup_compute\n";
  }
  std::cout << std::left << std::setw(12) << "shape" << std::setw(6) << "form" << std::right << std::setw(10) << "n"
            << std::setw(10) << "write" << std::setw(10) << "scan" << std::setw(10) << "read"
            << std::setw(10) << "compute" << std::setw(10) << "upload" << std::setw(10) << "download"
            << std::setw(11) << "host-tour" << std::setw(11) << "sequential" << std::setw(9) << "speedup"
            << "\n";
  const bool root = args.fix == "rootfix";
  std::stringstream shapes(args.shapes);
  std::string shape;
  while (std::getline(shapes, shape, ',')) {
    for (int lg = args.min_log; lg <= args.max_log; ++lg) {
      const std::size_t n = std::size_t(1) << lg;
      ParentArray parent = make(shape, n);
      std::vector<T> w(n);
      for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<T>(1 + (i * 7919) % 13);
      std::vector<double> write_ms, scan_ms, read_ms, up_ms, down_ms, tour_ms, seq_ms;
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
      std::stringstream form_list(args.forms);
      std::string form;
      while (std::getline(form_list, form, ',')) {
      write_ms.clear(); scan_ms.clear(); read_ms.clear(); up_ms.clear(); down_ms.clear();
      for (int rep = 0; rep < args.warmup + args.repeats; ++rep) {
        Profile profile;
        TreefixOptions options{Op::sum, false, Algorithm::euler, &profile};
        options.accurate = args.accurate;
        if (form == "three") options.euler_kernels = EulerKernels::three;
        else if (form != "fused") throw InputError("unknown form '" + form + "' (three, fused)");
        DeviceEulerTour device_tour(rt, host_tour, &profile);  // the transfer a first call pays
        auto weights = DeviceArray<T>::upload(rt, w, &profile);
        DeviceArray<T> result(rt, n);
        tree.euler_tour(nullptr);
        if (root) rootfix(rt, tree, weights, result, options);
        else leaffix(rt, tree, weights, result, options);
        auto out = result.download(rt, &profile);
        if (rep == 0 && (std::is_integral_v<T> || args.accurate) && out != ref)
          throw Error("benchmark result differs from the reference (" + shape + ", n=" + std::to_string(n) + ")");
        if (rep < args.warmup) continue;
        write_ms.push_back(profile.milliseconds("write"));
        scan_ms.push_back(profile.milliseconds("scan"));
        read_ms.push_back(profile.milliseconds("read"));
        up_ms.push_back(profile.milliseconds("upload"));
        down_ms.push_back(profile.milliseconds("download"));
      }
      double wr = median(write_ms), sc = median(scan_ms), rd = median(read_ms);
      double compute = wr + sc + rd, seq = median(seq_ms);
      std::cout << std::left << std::setw(12) << shape << std::setw(6) << form << std::right << std::setw(10) << n
                << std::fixed << std::setprecision(3) << std::setw(10) << wr << std::setw(10) << sc
                << std::setw(10) << rd << std::setw(10) << compute << std::setw(10) << median(up_ms)
                << std::setw(10) << median(down_ms) << std::setw(11) << median(tour_ms)
                << std::setw(11) << seq << std::setw(9) << std::setprecision(1) << seq / compute
                << "\n";
      if (csv.is_open())
        csv << '"' << d.device_name << "\",\"" << d.driver_version << "\"," << date << ',' << shape
            << ',' << n << ',' << args.type << ',' << args.fix << ',' << form << ',' << args.accurate << ',' << wr << ',' << sc << ',' << rd
            << ',' << compute << ',' << median(up_ms) << ',' << median(down_ms) << ','
            << median(tour_ms) << ',' << seq << ',' << seq / compute << "\n";
      }
    }
  }
}

void setup(CLI::App& app) {
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("treefix", "Euler-tour treefix: Write/Scan/Read vs sequential CPU");
  cmd->add_option("--min-log", args->min_log, "smallest size, log2")->capture_default_str();
  cmd->add_option("--max-log", args->max_log, "largest size, log2")->capture_default_str();
  cmd->add_option("--repeats", args->repeats, "timed runs per size")->capture_default_str();
  cmd->add_option("--warmup", args->warmup, "untimed runs first")->capture_default_str();
  cmd->add_option("--shapes", args->shapes, "comma list of star,caterpillar,path,random")->capture_default_str();
  cmd->add_option("--type", args->type, "int32, int64, float or double")->capture_default_str();
  cmd->add_option("--fix", args->fix, "rootfix or leaffix")->capture_default_str();
  cmd->add_option("--forms", args->forms, "comma list of Euler-tour forms: three (Write/Scan/Read), fused")->capture_default_str();
  cmd->add_flag("--accurate", args->accurate, "the accurate (compensated / wider) variant");
  cmd->add_option("--csv", args->csv, "write the table as CSV here");
  cmd->add_option("--device", args->device, "device spec (see `treefix devices`)");
  cmd->callback([args] {
    switch (parse<ValueType>(args->type)) {
      case ValueType::int32: run<std::int32_t>(*args); break;
      case ValueType::int64: run<std::int64_t>(*args); break;
      case ValueType::float32: run<float>(*args); break;
      case ValueType::float64: run<double>(*args); break;
    }
  });
}

TREEFIX_BENCH("treefix", setup);

}  // namespace
}  // namespace treefix::bench
