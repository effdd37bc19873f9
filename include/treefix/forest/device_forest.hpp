#pragma once
// A semantic forest that lives on the device, read there from RuleML files: the host only lists
// and reads the files (on all its threads) and sends their bytes up once; the device scans each
// file into the forest's arrays (one work-item per file), interns the labels in a hash table,
// and checks and renormalises the weights (kernels/forest/ruleml_parse.cl). The result is what
// read_ruleml_forest would give (treefix/forest/ruleml.hpp), with labels numbered in the
// forest's own way: label_ids() translates.
//
// The device reads the plain form that writers produce (write_ruleml's: elements, attributes in
// quotes, decimal weights, comments between elements). Where a file holds anything else (CDATA,
// entities, carriage returns in labels, signs or long mantissas in weights, trees deeper than 32
// levels, nodes of more than 64 children) or anything wrong, the host reader reads the whole input
// instead: then the forest is the host's, uploaded, or the InputError is the host's, naming the
// file first in name order with the line and element. So the result never depends on which
// side read it. A device without double precision (cl_khr_fp64) always takes the host reader.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/semantic_tree.hpp"

namespace treefix {

namespace detail {
struct DeviceLabels;  // how label_ids() finds a label: the device's table or the host's interner
}

struct DeviceSemanticForest {
  std::vector<std::string> names;  // tree j's file: name order (a directory) or as given
  std::size_t trees = 0, nodes = 0;
  // Tree j is nodes [bounds[j], bounds[j + 1]), breadth-first, root first; links are global
  // node indices, -1 for none; weights renormalised (siblings sum to 1), 0 for roots; arc -1 for
  // roots.
  DeviceArray<std::int32_t> bounds, first_child, next_sibling, label, arc;
  DeviceArray<float> weight;
  bool parsed_on_device = false;  // false: the host reader read the files

  // The ids that `labels` have in this forest (-1: no node or arc of it has that label).
  std::vector<std::int32_t> label_ids(Runtime& runtime,
                                      const std::vector<std::string>& labels) const;

  std::shared_ptr<const detail::DeviceLabels> labels_;  // internal
};

// Where the time went, milliseconds of wall clock.
struct DeviceForestTimes {
  double list_ms = 0;         // listing the directory (overlapped with read_ms, part of it)
  double read_ms = 0;         // until every file's bytes are in host memory
  double names_ms = 0;        // names sorted, the files' places in name order
  double upload_ms = 0;       // the bytes to the device
  double parse_ms = 0;        // the device's scan, links, labels and weights, and their check
  double host_reader_ms = 0;  // where the device gave up: the host reader and the upload
  double read_thread_ms = 0;  // inside read_ms, summed over the threads
};

// Every regular *.xml file of a directory (trees in name order) or the one file given; threads
// as read_ruleml_forest (0 = all). Kernel events under "parse" and transfers under "upload" and
// "download" in `profile`.
DeviceSemanticForest read_ruleml_forest_on_device(Runtime& runtime, const std::string& dir_or_file,
                                                  unsigned threads = 0,
                                                  DeviceForestTimes* times = nullptr,
                                                  Profile* profile = nullptr);

// Whether reading RuleML files on this device (read_ruleml_forest_on_device) is expected to beat
// the host reader on this host's threads: a GPU, and a host of few threads (the row
// ruleml_device_parse_threads, `treefix devices --tuning`).
bool ruleml_device_parse_pays(const Runtime& runtime);

// A host forest on the device; its label ids are `labels`' (what label_ids() answers with).
DeviceSemanticForest upload_forest(Runtime& runtime, const NamedSemanticForest& forest,
                                   const Interner& labels, Profile* profile = nullptr);

}  // namespace treefix
