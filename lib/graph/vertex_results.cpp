// Per-vertex results in their callers' form, on the device (treefix/graph/vertex_results.hpp).
#include "treefix/graph/vertex_results.hpp"

#include <climits>

#include "treefix/core/launch.hpp"
#include "treefix/primitives/scan.hpp"

namespace treefix {

std::size_t number_components(Runtime& runtime, DeviceArray<vertex_t>& label,
                              bool labels_are_minima, Profile* profile) {
  const std::size_t n = label.size();
  if (n == 0) return 0;
  return translate_device_errors("numbering components", [&] {
    const Phase phase{profile, "number components"};
    Kernels k(runtime, "graph/vertex_results.cl", "", phase);
    const cl_int count = static_cast<cl_int>(n);
    const cl_int with_minimum = labels_are_minima ? 0 : 1;
    DeviceArray<vertex_t> minimum;
    if (labels_are_minima) {
      minimum = label;  // not read
    } else {
      minimum = DeviceArray<vertex_t>::workspace(runtime, "components.minimum", n);
      fill(runtime, minimum.buffer(), cl_int(INT_MAX), n, phase);
      k.run("component_minimum", k.items(n), label, minimum, count);
    }
    auto number = DeviceArray<vertex_t>::workspace(runtime, "components.number", n);
    auto total = DeviceArray<vertex_t>::workspace(runtime, "components.count", 1);
    k.run("first_in_component", k.items(n), label, minimum, with_minimum, number, count);
    scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, number.buffer(), number.buffer(),
         n, profile, phase.name, &total.buffer());
    k.run("relabel", k.items(n), label, minimum, with_minimum, number, count);
    return static_cast<std::size_t>(read_value<cl_int>(runtime, total.buffer()));
  });
}

void label_by_minimum(Runtime& runtime, DeviceArray<vertex_t>& label, Profile* profile) {
  const std::size_t n = label.size();
  if (n == 0) return;
  translate_device_errors("labelling by minimum", [&] {
    const Phase phase{profile, "number components"};
    Kernels k(runtime, "graph/vertex_results.cl", "", phase);
    auto minimum = DeviceArray<vertex_t>::workspace(runtime, "components.minimum", n);
    fill(runtime, minimum.buffer(), cl_int(INT_MAX), n, phase);
    k.run("component_minimum", k.items(n), label, minimum, static_cast<cl_int>(n));
    k.run("take_minimum", k.items(n), label, minimum, static_cast<cl_int>(n));
  });
}

void mark_missing_parents(Runtime& runtime, DeviceArray<vertex_t>& parent, vertex_t none,
                          Profile* profile) {
  if (parent.empty()) return;
  translate_device_errors("marking missing parents", [&] {
    Kernels k(runtime, "graph/vertex_results.cl", "", {profile, "parents"});
    k.run("missing_parents", k.items(parent.size()), parent, static_cast<cl_int>(none),
          static_cast<cl_int>(parent.size()));
  });
}

}  // namespace treefix
