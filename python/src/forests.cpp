// Forests: treefix.similarity, the tree similarity of RuleML trees to a reference tree
// (treefix/forest/similarity.hpp, the definitions docs/forests.md states).
#include <pybind11/stl.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "runtime.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"

namespace treefix::python {
namespace {

// A reference given as RuleML text (it starts with '<' after white space) or as a file's path.
SemanticForest reference_forest(py::handle reference, Interner& interner) {
  const std::string text = path_text(reference);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  py::gil_scoped_release release;
  if (first != std::string::npos && text[first] == '<')
    return build_semantic_forest({parse_ruleml(text, "reference")}, interner);
  if (std::filesystem::is_directory(text))
    throw InputError(text +
                     ": cannot open: it is a directory, not a file (the reference is one "
                     "RuleML file or RuleML text)");
  return read_ruleml_forest(text, interner, 1).forest;
}

py::object similarity(py::handle reference, py::handle trees, const std::string& definition,
                      double degradation, bool sqrt_adjustment, bool cpu, bool return_names,
                      const std::optional<RuntimeHandle>& runtime) {
  SimilarityParameters parameters;
  parameters.definition = parse<SimilarityDefinition>(definition);
  parameters.degradation = degradation;
  parameters.sqrt_adjustment = sqrt_adjustment;
  check_similarity_parameters(parameters);
  Interner interner;
  const SemanticForest reference_trees = reference_forest(reference, interner);
  RuleMLFiles files;
  if (py::isinstance<py::str>(trees) || py::hasattr(trees, "__fspath__")) {
    files = list_ruleml_files(path_text(trees));
    if (files.names.empty())
      throw InputError(files.directory + ": no *.xml files in the directory");
  } else {
    for (py::handle path : trees) files.names.push_back(path_text(path));
  }
  std::vector<double> values;
  if (!files.names.empty()) {
    NamedSemanticForest candidates;
    {
      py::gil_scoped_release release;
      candidates = read_ruleml_forest(files, interner, 0);
    }
    if (cpu) {
      py::gil_scoped_release release;
      values = similarity_cpu(reference_trees, candidates.forest, parameters, 0);
    } else {
      RuntimeHandle box = runtime_or_default(runtime);
      std::vector<float> device = on_device(*box, [&](Runtime& rt) {
        return similarity_device(rt, reference_trees, candidates.forest, parameters);
      });
      values.assign(device.begin(), device.end());
    }
  }
  py::array_t<double> result(static_cast<py::ssize_t>(values.size()), values.data());
  if (!return_names) return std::move(result);
  return py::make_tuple(files.names, result);
}

}  // namespace

void bind_forests(py::module_& m) {
  m.def("similarity", &similarity, py::arg("reference"), py::arg("trees"),
        py::arg("definition") = "weighted", py::kw_only(), py::arg("degradation") = 0.5,
        py::arg("sqrt_adjustment") = false, py::arg("cpu") = false, py::arg("return_names") = false,
        runtime_arg(), R"doc(
The similarity in [0, 1] of every tree of `trees` to `reference` (float64, one per tree).

reference: a RuleML file's path, or RuleML text (starting with '<'). trees: a directory (its *.xml
files, in name order) or a list of paths (in the given order). definition: "weighted" (Bhavsar,
Boley and Yang: arcs paired by label) or "thesis" (Lu 2014: children paired by position);
docs/forests.md gives both. degradation: D; sqrt_adjustment: A(s) = sqrt(s). cpu=True computes on
all host cores in double precision instead of on the device (float). return_names=True returns
(names, similarities), names as listed. Malformed files raise ValueError naming the file, line
and element.)doc");
}

}  // namespace treefix::python
