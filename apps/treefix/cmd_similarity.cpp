// treefix similarity: rank RuleML trees by tree similarity to a reference tree.
// treefix semtrees:   write random semantic trees as RuleML files (test and benchmark data).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>

#include "command.hpp"
#include "output_format.hpp"
#include "progress.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/forest/device_forest.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"
#include "treefix/io/output_file.hpp"

namespace treefix::cli {
namespace {

struct SimilarityOptions {
  std::string reference, trees, output, device;
  std::size_t top = 0;
  bool cpu = false, stats = false;
  std::string parse = "auto";  // where the files are parsed: host, device or auto
  unsigned threads = 0;
  SimilarityParameters parameters;
};

// Where the files are parsed (--parse); auto: where the forest module expects it to be faster.
bool parse_on_device(const std::string& where, Runtime& runtime) {
  if (where != "auto") return where == "device";
  return ruleml_device_parse_pays(runtime);
}

void run_similarity(const SimilarityOptions& o, PhaseTimes& phases) {
  if (o.threads != 0 && !o.cpu) throw InputError("similarity: --threads goes with --cpu");
  if (o.cpu && o.parse == "device")
    throw InputError("similarity: --parse device goes without --cpu");
  if (std::filesystem::is_directory(o.reference))
    throw InputError(o.reference +
                     ": cannot open: it is a directory, not a file (--reference is one RuleML "
                     "file)");
  OutputFiles outputs({o.output});
  Interner interner;
  const NamedSemanticForest reference =
      phases.measure("read", [&] { return read_ruleml_forest(o.reference, interner, 1); });
  std::vector<std::uint32_t> millionths;
  std::vector<std::string> names;
  Runtime* runtime = nullptr;
  if (!o.cpu)
    runtime = &phases.measure("device setup", [&]() -> Runtime& { return kept_runtime(o.device); });
  if (!runtime || !parse_on_device(o.parse, *runtime)) {
    RuleMLReadTimes times;
    NamedSemanticForest candidates = read_ruleml_forest(o.trees, interner, 0, &times);
    if (candidates.names.empty()) throw InputError(o.trees + ": no *.xml files in the directory");
    phases.add("parse", times.parse_ms);  // the directory listing overlaps it
    phases.add("sort names", times.sort_ms);
    phases.add("construct", times.merge_ms);
    if (o.cpu) {
      millionths = phases.measure("compute", [&] {
        return to_millionths(
            similarity_cpu(reference.forest, candidates.forest, o.parameters, o.threads));
      });
    } else {
      millionths = phases.measure("compute", [&] {
        return to_millionths(
            similarity_device(*runtime, reference.forest, candidates.forest, o.parameters));
      });
    }
    names = std::move(candidates.names);
  } else {
    Runtime& device = *runtime;
    // The files' bytes read here, parsed into the forest on the device.
    DeviceForestTimes times;
    DeviceSemanticForest candidates = read_ruleml_forest_on_device(device, o.trees, 0, &times);
    if (candidates.names.empty()) throw InputError(o.trees + ": no *.xml files in the directory");
    phases.add("read files", times.read_ms);  // the directory listing overlaps it
    phases.add("sort names", times.names_ms);
    phases.add("upload", times.upload_ms);
    phases.add("parse on the device", times.parse_ms);
    if (!candidates.parsed_on_device) phases.add("host reader", times.host_reader_ms);
    millionths = phases.measure("compute", [&] {
      return to_millionths(
          similarity_device(device, reference.forest, interner, candidates, o.parameters));
    });
    names = std::move(candidates.names);
  }
  auto ranked = phases.measure("sort", [&] { return rank_by_millionths(millionths); });
  if (o.top && o.top < ranked.size()) ranked.resize(o.top);
  phases.measure("write", [&] {
    write_output(o.output, [&](std::ostream& out) {
      char value[16];
      for (std::size_t i : ranked) {
        // The printed value is the rank key itself, so order and text always agree.
        std::snprintf(value, sizeof value, "%" PRIu32 ".%06" PRIu32 " ", millionths[i] / 1000000,
                      millionths[i] % 1000000);
        out << value << names[i] << "\n";
      }
    });
    outputs.commit();
  });
}

void setup_similarity(CLI::App& app) {
  auto [command, options] = add_timed_command(
      app, "similarity",
      "Tree similarity of RuleML trees to a reference tree (lines 'similarity name', highest "
      "first, ties by name)",
      run_similarity);
  command->add_option("--reference", options->reference, "Reference tree (RuleML file)")
      ->required();
  command
      ->add_option("--trees", options->trees, "Directory of *.xml RuleML files, or one RuleML file")
      ->required();
  add_output_option(command, options->output, "output file")
      ->check(written_as({}));  // text only: .npy, .json ... refused at once
  command->add_option("--top", options->top, "Print only the K most similar trees (K >= 1)")
      ->transform(integer_in(1));
  add_enum_option(command, "--definition", options->parameters.definition,
                  "weighted (Bhavsar, Boley and Yang: arcs paired by label) or thesis (Lu 2014, "
                  "Figs. 2.7/2.8: children paired by position); docs/forests.md");
  command->add_flag("--cpu", options->cpu, "Compute on the CPU instead of an OpenCL device");
  command
      ->add_option("--parse", options->parse,
                   "Where the files are parsed: host (pugixml on every core), device (the host "
                   "only reads them) or auto (the device when it is a GPU and the host has at "
                   "most 8 threads; bench/results/h100-2026-11-25-forest-device)")
      ->check(CLI::IsMember({"host", "device", "auto"}));
  command->add_option("--threads", options->threads, "CPU threads with --cpu (default: all cores)")
      ->transform(integer_in(1, 4096));
  command->add_flag("--sqrt-adjustment", options->parameters.sqrt_adjustment,
                    "Adjust child similarities by A(s) = sqrt(s) instead of A(s) = s");
  add_device_option(command, options->device);
  add_stats_option(command, options->stats);
}

struct SemtreesOptions {
  std::string directory, prefix = "tree";
  std::size_t count = 0;
  std::uint64_t seed = 1;
  SemanticTreeShape shape{4, 3, 2, 4, 0};  // arc labels 0: max(5, max_children)
};

// RuleML text per node, for the disk estimate (an indented <_r ...><cterm> line: 60-80 bytes).
constexpr double ruleml_bytes_per_node = 80;

// Refuses trees that the disk cannot hold, before any is grown.
void require_disk_for(const SemtreesOptions& o) {
  namespace fs = std::filesystem;
  const double nodes = expected_semantic_tree_nodes(o.shape) * static_cast<double>(o.count);
  std::error_code ec;
  const fs::space_info space = fs::space(o.directory, ec);
  if (!ec && nodes * ruleml_bytes_per_node > static_cast<double>(space.available)) {
    char message[256];
    std::snprintf(message, sizeof message,
                  "semtrees: %zu trees of about %.3g nodes each need about %.0f MiB of disk, but "
                  "%s has %.0f MiB free",
                  o.count, nodes / static_cast<double>(o.count ? o.count : 1),
                  nodes * ruleml_bytes_per_node / 1048576.0, o.directory.c_str(),
                  static_cast<double>(space.available) / 1048576.0);
    throw CapacityError(message);
  }
}

// DIR/PREFIX_000042.xml
std::string tree_path(const SemtreesOptions& o, std::size_t i) {
  const std::size_t digits = std::max<std::size_t>(6, std::to_string(o.count).size());
  std::string number = std::to_string(i);
  number.insert(0, digits - number.size(), '0');
  return (std::filesystem::path(o.directory) / (o.prefix + "_" + number + ".xml")).string();
}

void write_semtrees(const SemtreesOptions& o) {
  require_disk_for(o);
  // Every file is staged and committed at the end: all the trees or none. The first is declared
  // now: the directory must take files before any tree is grown.
  OutputFiles outputs;
  if (o.count > 0) outputs.add(tree_path(o, 0));
  // One tree at a time (the same trees as random_semantic_trees(count, seed, shape)).
  SemanticTreeSource source(o.seed, o.shape);
  Progress progress("semtrees");  // on a terminal: the files as they are written
  for (std::size_t i = 0; i < o.count; ++i) {
    const SemanticTree tree = source.next();
    write_output(tree_path(o, i), [&](std::ostream& out) { write_ruleml(out, tree); });
    progress.show(std::to_string(i + 1) + " of " + std::to_string(o.count) + " files written");
  }
  progress.show("flushing " + std::to_string(o.count) + " files to the disk");
  outputs.commit();
}

void run_semtrees(const SemtreesOptions& options) {
  namespace fs = std::filesystem;
  SemtreesOptions o = options;
  if (o.shape.arc_labels == 0) o.shape.arc_labels = std::max(5, o.shape.max_children);
  if (o.prefix.find_first_of("/\\") != std::string::npos ||
      o.prefix.find("..") != std::string::npos)
    throw InputError("semtrees: --prefix '" + o.prefix +
                     "' may not contain a path separator or '..' (files go into --output-dir)");
  // Refuses trees that cannot be held (the expected size grows like
  // (max_children / 2)^max_height), before the directory is created.
  require_host_memory_for(1, o.shape);
  std::error_code ec;
  const bool created = fs::create_directories(o.directory, ec);
  if (ec) throw InputError(o.directory + ": cannot create the directory: " + ec.message());
  try {
    write_semtrees(o);
  } catch (...) {
    if (created) fs::remove(o.directory, ec);  // a refused run leaves no (empty) directory
    throw;
  }
}

void setup_semtrees(CLI::App& app) {
  auto options = std::make_shared<SemtreesOptions>();
  auto* command = add_command(
      app, "semtrees", "Write random semantic trees as RuleML files (DIR/PREFIX_000000.xml, ...)",
      options, run_semtrees);
  command->add_option("--count,-n", options->count, "Number of trees")
      ->required()
      ->transform(integer_in(0, INT32_MAX));
  command->add_option("--output-dir,-o", options->directory, "Directory to write (created)")
      ->required();
  command->add_option("--prefix", options->prefix,
                      "File name prefix (default: tree; no path separators)");
  command->add_option("--seed", options->seed, "Random seed (default: 1)")
      ->transform(integer_in(0));
  const struct {
    const char* name;
    int& value;
    const char* help;
    int low, high;
  } shape_options[] = {
      {"--max-height", options->shape.max_height, "Largest height in arcs (default 4)", 0, 64},
      {"--max-children", options->shape.max_children, "Most children per node (default 3)", 1, 64},
      {"--arc-labels", options->shape.arc_labels,
       "Arc label alphabet size (default: 5, or --max-children when larger)", 1, 1000000},
      {"--node-labels", options->shape.node_labels, "Node label alphabet size (default 4)", 1,
       1000000},
      {"--root-labels", options->shape.root_labels, "Root label alphabet size (default 2)", 1,
       1000000}};
  for (const auto& option : shape_options)
    command->add_option(option.name, option.value, option.help)
        ->transform(integer_in(option.low, option.high));
}

TREEFIX_COMMAND("similarity", setup_similarity);
TREEFIX_COMMAND("semtrees", setup_semtrees);

}  // namespace
}  // namespace treefix::cli
