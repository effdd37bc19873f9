// treefix-bench accuracy: the floating-point study of Defour & Marin (their Fig. 10), redone.
// For each condition number 10^min..10^max, --trees trials: GenSum (Ogita-Rump-Oishi) draws a sum
// of --terms terms with that condition number; the terms become the weights of a tree built so
// that one vertex's rootfix (or leaffix) is exactly that sum; each algorithm computes the treefix
// in --type; the relative error of that vertex's value against the exact sum (exact expansion
// sum, rounded once to double) is recorded. The CSV has the maximum and median over the trials.
//
// Settings (fix:shape), the measured vertex in brackets:
//   rootfix:path         a path of m vertices carrying the terms root to leaf          [the leaf]
//   rootfix:caterpillar  the path above plus m leaves hung on random path vertices, carrying a
//                        second GenSum sum of the same condition; labels shuffled, so the tour
//                        interleaves leaves (+w ... -w) between the path's entries     [path end]
//   leaffix:star         root and m-1 leaves, one term each                            [the root]
//   leaffix:random       random recursive tree of m vertices, labels shuffled          [the root]
// Algorithms: sequential (CPU reference), euler, levels, each in the accurate precision (the
// default) or with "-fast" in the weight type. An algorithm the library rejects with InputError
// gets rows with status "unavailable" and empty errors; nothing else changes when it arrives.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>

#include "bench.hpp"
#include "cli_options.hpp"
#include "treefix/core/error.hpp"
#include "treefix/treefix/gensum.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::bench {
namespace {

struct Args {
  std::size_t terms = 10000, trees = 100;
  int min_cond_log = 1, max_cond_log = 10;
  std::string settings = "rootfix:path,rootfix:caterpillar,leaffix:star,leaffix:random";
  std::string algorithms = "sequential-fast,euler-fast,levels-fast,sequential,euler,levels";
  ValueType type = ValueType::float32;
  CommonOptions common;
};

// One trial: a tree, its weights, the vertex whose treefix is the GenSum sum, and that sum.
template <class T>
struct Trial {
  ParentArray parent;
  std::vector<T> weights;
  vertex_t measured = 0;  // -1: every vertex is measured, against exact_all
  double exact = 0;
  double condition = 0;
  std::vector<double> exact_all;
};

// The seed's own placement, settings rootfix:random-every and leaffix:random-every: a random
// recursive tree of m vertices, labels shuffled, the GenSum terms its weights; the error is
// measured at EVERY vertex against that vertex's exact treefix (vertices whose exact value is 0
// have no relative error and are left out); max and median over every vertex of every tree.
//
// The exact treefix of every vertex, each rounded once to double: rootfix sums the weights on the
// vertex's root path, leaffix those of its subtree (each weight goes to every ancestor's list).
template <class T>
std::vector<double> exact_treefix(const ParentArray& parent, const std::vector<T>& w, bool root) {
  std::vector<std::vector<T>> covered(parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v)
    for (vertex_t u = static_cast<vertex_t>(v); u != -1; u = parent[u])
      covered[root ? v : static_cast<std::size_t>(u)].push_back(w[root ? u : v]);
  std::vector<double> exact(parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v) exact[v] = gensum::exact_sum_of(covered[v]);
  return exact;
}

template <class T>
Trial<T> make_trial(const std::string& fix, const std::string& shape, std::size_t m, double cond,
                    std::uint64_t seed) {
  auto sum = gensum::generate<T>(m, cond, seed);
  Trial<T> t;
  t.exact = sum.exact_sum;
  t.condition = sum.condition;
  std::mt19937_64 rng(seed * 0x2545f4914f6cdd1dull + 17);
  // A random recursive tree of m vertices under shuffled labels; returns the root's label.
  auto shuffled_random_tree = [&](ParentArray& parent) {
    std::vector<vertex_t> label(m);
    std::iota(label.begin(), label.end(), 0);
    std::shuffle(label.begin(), label.end(), rng);
    parent.assign(m, -1);
    for (std::size_t v = 1; v < m; ++v)
      parent[label[v]] = label[std::uniform_int_distribution<std::size_t>(0, v - 1)(rng)];
    return label[0];
  };
  if (fix == "rootfix" && shape == "path") {
    t.parent.resize(m);
    for (std::size_t v = 0; v < m; ++v) t.parent[v] = static_cast<vertex_t>(v) - 1;
    t.weights = sum.terms;
    t.measured = static_cast<vertex_t>(m - 1);
  } else if (fix == "rootfix" && shape == "caterpillar") {
    auto noise = gensum::generate<T>(m, cond, seed + 0x51ed);
    std::vector<vertex_t> label(2 * m);  // spine i -> label[i], leaf j -> label[m + j]
    std::iota(label.begin(), label.end(), 0);
    std::shuffle(label.begin(), label.end(), rng);
    std::uniform_int_distribution<std::size_t> on_spine(0, m - 1);
    t.parent.assign(2 * m, -1);
    t.weights.assign(2 * m, T(0));
    for (std::size_t i = 0; i < m; ++i) {
      t.parent[label[i]] = i == 0 ? -1 : label[i - 1];
      t.weights[label[i]] = sum.terms[i];
      t.parent[label[m + i]] = label[on_spine(rng)];
      t.weights[label[m + i]] = noise.terms[i];
    }
    t.measured = label[m - 1];
  } else if (fix == "leaffix" && shape == "star") {
    t.parent.assign(m, 0);
    t.parent[0] = -1;
    t.weights = sum.terms;
    t.measured = 0;
  } else if (fix == "leaffix" && shape == "random") {
    t.weights = sum.terms;  // already in random order
    t.measured = shuffled_random_tree(t.parent);
  } else if (shape == "random-every" && (fix == "rootfix" || fix == "leaffix")) {
    shuffled_random_tree(t.parent);
    t.weights = sum.terms;
    t.measured = -1;
    t.exact_all = exact_treefix(t.parent, t.weights, fix == "rootfix");
    return t;
  } else {
    throw InputError("unknown accuracy setting '" + fix + ":" + shape +
                     "' (rootfix:path, rootfix:caterpillar, leaffix:star, leaffix:random, "
                     "rootfix:random-every, leaffix:random-every)");
  }
  // The construction must put exactly the GenSum terms under the measured value: sum, exactly,
  // the weights that its rootfix (ancestors) or leaffix (descendants) covers.
  std::vector<T> covered;
  if (fix == "rootfix") {
    for (vertex_t v = t.measured; v != -1; v = t.parent[v]) covered.push_back(t.weights[v]);
  } else {
    for (std::size_t v = 0; v < t.parent.size(); ++v) {
      vertex_t u = static_cast<vertex_t>(v);
      while (u != -1 && u != t.measured) u = t.parent[u];
      if (u == t.measured) covered.push_back(t.weights[v]);
    }
  }
  if (covered.size() != m || gensum::exact_sum_of(covered) != t.exact)
    throw Error("accuracy setting " + fix + ":" + shape +
                " does not hold the whole sum at vertex " + std::to_string(t.measured));
  return t;
}

// An algorithm name, with "-fast" for the fast precision (the default is accurate).
template <class T>
std::vector<T> compute(Runtime& rt, const std::string& name, bool root, const Trial<T>& t) {
  const bool fast = name.size() > 5 && name.compare(name.size() - 5, 5, "-fast") == 0;
  const std::string algorithm = fast ? name.substr(0, name.size() - 5) : name;
  const Precision precision = fast ? Precision::fast : Precision::accurate;
  if (algorithm == "sequential")
    return root ? reference::rootfix(t.parent, t.weights, Op::sum, false, precision)
                : reference::leaffix(t.parent, t.weights, Op::sum, false, precision);
  TreefixOptions options;
  options.op = Op::sum;
  options.precision = precision;
  if (algorithm == "euler")
    options.algorithm = Algorithm::euler;
  else if (algorithm == "levels")
    options.algorithm = Algorithm::levels;
  else
    throw InputError("unknown algorithm '" + name +
                     "' (sequential, euler, levels, each with -fast for the fast precision)");
  return root ? rootfix(rt, t.parent, t.weights, options)
              : leaffix(rt, t.parent, t.weights, options);
}

template <class T>
void run(Session& session, const Args& args) {
  if (args.terms < 2) throw InputError("--terms must be at least 2");
  if (args.trees < 1) throw InputError("--trees must be at least 1");
  if (args.min_cond_log < 0 || args.max_cond_log < args.min_cond_log)
    throw InputError("condition range 10^" + std::to_string(args.min_cond_log) + "..10^" +
                     std::to_string(args.max_cond_log) + " is empty or negative");
  Runtime& rt = session.runtime;
  const auto settings = split(args.settings);
  const auto algorithms = split(args.algorithms);
  std::cout << "# accuracy of " << to_string(args.type) << " sums of " << args.terms
            << " GenSum terms on trees; " << args.trees
            << " trials per setting; relative error of the vertex holding the whole sum "
               "(random-every: of every vertex)\n";
  Table table({"type", "fix", "shape", "terms", "vertices", "trials", "condition_target",
               "condition_median", "algorithm", "max_rel_error", "median_rel_error", "status"});
  std::vector<std::string> reported_unavailable;
  const std::size_t total_steps =
      settings.size() * std::size_t(args.max_cond_log - args.min_cond_log + 1);
  std::size_t step = 0;
  for (const auto& setting : settings) {
    const auto colon = setting.find(':');
    if (colon == std::string::npos) throw InputError("setting '" + setting + "' is not fix:shape");
    const std::string fix = setting.substr(0, colon), shape = setting.substr(colon + 1);
    const bool root = fix == "rootfix";
    for (int cl = args.min_cond_log; cl <= args.max_cond_log; ++cl, ++step) {
      std::cerr << "\r[accuracy] " << setting << " cond 1e" << cl << "  (" << step + 1 << "/"
                << total_steps << ")      " << std::flush;
      const double cond = std::pow(10.0, cl);
      std::vector<std::vector<double>> errors(algorithms.size());
      std::vector<bool> unavailable(algorithms.size(), false);
      std::vector<double> achieved;
      std::size_t vertices = 0;
      for (std::size_t trial = 0; trial < args.trees; ++trial) {
        auto t = make_trial<T>(fix, shape, args.terms, cond, 1000003ull * cl + trial);
        vertices = t.parent.size();
        achieved.push_back(t.condition);
        for (std::size_t a = 0; a < algorithms.size(); ++a) {
          if (unavailable[a]) continue;
          try {
            auto r = compute<T>(rt, algorithms[a], root, t);
            if (t.measured >= 0) {
              const double got = static_cast<double>(r[t.measured]);
              errors[a].push_back(std::fabs(got - t.exact) / std::fabs(t.exact));
            } else {
              for (std::size_t v = 0; v < r.size(); ++v)
                if (t.exact_all[v] != 0)
                  errors[a].push_back(std::fabs(static_cast<double>(r[v]) - t.exact_all[v]) /
                                      std::fabs(t.exact_all[v]));
            }
          } catch (const InputError& e) {
            if (algorithms[a].rfind("euler", 0) != 0 && algorithms[a].rfind("levels", 0) != 0)
              throw;
            unavailable[a] = true;
            if (std::find(reported_unavailable.begin(), reported_unavailable.end(),
                          algorithms[a]) == reported_unavailable.end()) {
              reported_unavailable.push_back(algorithms[a]);
              std::cerr << "\n[accuracy] " << algorithms[a] << " unavailable: " << e.what() << "\n";
            }
          }
        }
      }
      for (std::size_t a = 0; a < algorithms.size(); ++a) {
        const bool ok = !unavailable[a] && !errors[a].empty();
        const double max_err = ok ? *std::max_element(errors[a].begin(), errors[a].end()) : NAN;
        const double med_err = ok ? median(errors[a]) : NAN;
        table.add({to_string(args.type), fix, shape, std::to_string(args.terms),
                   std::to_string(vertices), std::to_string(args.trees), general(cond),
                   general(median(achieved)), algorithms[a], ok ? general(max_err) : "",
                   ok ? general(med_err) : "", ok ? "ok" : "unavailable"});
      }
    }
  }
  std::cerr << "\r[accuracy] done" << std::string(40, ' ') << "\n";
  session.report({&table});
}

void run_floating(Session& session, const Args& args) {
  visit_value_type(args.type, [&](auto value) {
    using T = decltype(value);
    if constexpr (std::is_integral_v<T>)
      throw InputError(std::string("the accuracy study needs --type float or double, not ") +
                       to_string(args.type));
    else
      run<T>(session, args);
  });
}

void add_options(CLI::App* suite, Args& o) {
  add_setting(suite, "--terms", o.terms, "terms per sum (vertices holding the sum)");
  add_setting(suite, "--trees", o.trees, "trials (trees) per setting and condition number");
  add_setting(suite, "--min-cond-log", o.min_cond_log, "smallest condition number, log10");
  add_setting(suite, "--max-cond-log", o.max_cond_log, "largest condition number, log10");
  add_setting(suite, "--settings", o.settings, "comma list of fix:shape");
  add_selection(suite, "--algorithms", o.algorithms);
  cli::add_enum_option(suite, "--type", o.type, "float or double");
}

TREEFIX_BENCH("accuracy", "float rootfix/leaffix error vs condition number (GenSum sums on trees)",
              run_floating, add_options, false);

}  // namespace
}  // namespace treefix::bench
