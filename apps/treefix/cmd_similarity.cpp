// treefix similarity: rank RuleML trees by weighted tree similarity to a reference tree.
// treefix semtrees:   write random semantic trees as RuleML files (test and benchmark data).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"

namespace treefix::cli {
namespace {

struct SimilarityOptions {
  std::string reference, trees, output, device;
  std::size_t top = 0;
  bool cpu = false, sqrt_adjustment = false;
  unsigned threads = 0;
};

void run_similarity(const SimilarityOptions& o) {
  SemanticTree reference = read_ruleml(o.reference);
  NamedSemanticTrees candidates = read_ruleml_trees(o.trees);
  if (candidates.trees.empty()) throw InputError(o.trees + ": no *.xml files in the directory");
  Interner interner;
  SemanticForest ref = build_semantic_forest({reference}, interner);
  SemanticForest forest = build_semantic_forest(candidates.trees, interner);
  SimilarityParameters parameters;
  parameters.sqrt_adjustment = o.sqrt_adjustment;
  std::vector<double> scores;
  if (o.cpu) {
    scores = similarity_cpu(ref, forest, parameters, o.threads);
  } else {
    Runtime runtime(o.device);
    auto device_scores = similarity_device(runtime, ref, forest, parameters);
    scores.assign(device_scores.begin(), device_scores.end());
  }
  // Rank on the printed precision, so that equal printed values are ordered by name.
  for (auto& s : scores) s = std::round(s * 1e6) / 1e6;
  auto ranked = rank_by_similarity(scores, candidates.names);
  if (o.top && o.top < ranked.size()) ranked.resize(o.top);
  write_output(o.output, [&](std::ostream& out) {
    char buffer[32];
    for (std::size_t i : ranked) {
      std::snprintf(buffer, sizeof buffer, "%.6f", scores[i]);
      out << buffer << " " << candidates.names[i] << "\n";
    }
  });
}

void setup_similarity(CLI::App& app) {
  auto options = std::make_shared<SimilarityOptions>();
  auto* command = add_command(
      app, "similarity",
      "Weighted tree similarity of RuleML trees to a reference tree (lines 'similarity name', "
      "highest first, ties by name)",
      options, run_similarity);
  command->add_option("--reference", options->reference, "Reference tree (RuleML file)")
      ->required();
  command
      ->add_option("--trees", options->trees, "Directory of *.xml RuleML files, or one RuleML file")
      ->required();
  add_output_option(command, options->output, "output file");
  command->add_option("--top", options->top, "Print only the K most similar trees")
      ->check(CLI::PositiveNumber);
  command->add_flag("--cpu", options->cpu, "Compute on the CPU instead of an OpenCL device");
  command->add_option("--threads", options->threads, "CPU threads with --cpu (default: all cores)");
  command->add_flag("--sqrt-adjustment", options->sqrt_adjustment,
                    "Adjust child similarities by A(s) = sqrt(s) instead of A(s) = s");
  add_device_option(command, options->device);
}

struct SemtreesOptions {
  std::string directory, prefix = "tree";
  std::size_t count = 0;
  std::uint64_t seed = 1;
  SemanticTreeShape shape;
};

void run_semtrees(const SemtreesOptions& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(o.directory, ec);
  if (ec) throw InputError(o.directory + ": cannot create the directory: " + ec.message());
  auto trees = random_semantic_trees(o.count, o.seed, o.shape);
  const int digits = std::max<int>(6, static_cast<int>(std::to_string(o.count).size()));
  for (std::size_t i = 0; i < trees.size(); ++i) {
    std::string number = std::to_string(i);
    number.insert(0, digits - number.size(), '0');
    const auto path = (fs::path(o.directory) / (o.prefix + "_" + number + ".xml")).string();
    write_output(path, [&](std::ostream& out) { write_ruleml(out, trees[i]); });
  }
}

void setup_semtrees(CLI::App& app) {
  auto options = std::make_shared<SemtreesOptions>();
  auto* command = add_command(
      app, "semtrees", "Write random semantic trees as RuleML files (DIR/PREFIX_000000.xml, ...)",
      options, run_semtrees);
  command->add_option("--count,-n", options->count, "Number of trees")->required();
  command->add_option("--output-dir,-o", options->directory, "Directory to write (created)")
      ->required();
  command->add_option("--prefix", options->prefix, "File name prefix (default: tree)");
  command->add_option("--seed", options->seed, "Random seed (default: 1)");
  command
      ->add_option("--max-height", options->shape.max_height, "Largest height in arcs (default 4)")
      ->check(CLI::Range(0, 64));
  command
      ->add_option("--max-children", options->shape.max_children,
                   "Most children per node (default 3)")
      ->check(CLI::Range(1, 64));
  command
      ->add_option("--arc-labels", options->shape.arc_labels, "Arc label alphabet size (default 5)")
      ->check(CLI::Range(1, 1000000));
  command
      ->add_option("--node-labels", options->shape.node_labels,
                   "Node label alphabet size (default 4)")
      ->check(CLI::Range(1, 1000000));
  command
      ->add_option("--root-labels", options->shape.root_labels,
                   "Root label alphabet size (default 2)")
      ->check(CLI::Range(1, 1000000));
}

TREEFIX_COMMAND("similarity", setup_similarity);
TREEFIX_COMMAND("semtrees", setup_semtrees);

}  // namespace
}  // namespace treefix::cli
