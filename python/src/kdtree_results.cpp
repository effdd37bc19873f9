// The Python results of KDTree's pair searches (kdtree_results.hpp).
#include "kdtree_results.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <utility>

#include "arrays.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix::python {
namespace {

constexpr std::size_t kQueriesPerPiece = 1024;


// Python's cycle collector paused while a result of many containers is built: every 700 new
// lists or tuples would otherwise start a collection that walks the young objects, and the
// older generations' collections walk everything the result holds so far. Lists of ints and
// tuples of ints form no cycles.
class CollectorPaused {
 public:
  CollectorPaused() : was_enabled_(PyGC_Disable()) {}
  ~CollectorPaused() {
    if (was_enabled_) PyGC_Enable();
  }
  CollectorPaused(const CollectorPaused&) = delete;
  CollectorPaused& operator=(const CollectorPaused&) = delete;

 private:
  int was_enabled_;
};

// A new reference to the ints' object for index i.
PyObject* int_object(PyObject* const* ints, std::int64_t i) {
  PyObject* o = ints[i];
  Py_INCREF(o);
  return o;
}

PyObject* list_of(const HostLists& lists, std::size_t q, PyObject* const* ints) {
  const std::int64_t begin = lists.offset[q], end = lists.offset[q + 1];
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(end - begin));
  if (!list) throw py::error_already_set();
  for (std::int64_t k = begin; k < end; ++k)
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(k - begin), int_object(ints, lists.index[k]));
  return list;
}

// The query of every pair position: rows[k] = q for offset[q] <= k < offset[q + 1].
template <class Body>
void for_pairs(const HostLists& lists, unsigned threads, Body body) {
  parallel_for_ranges(lists.queries(), kQueriesPerPiece, threads,
                      [&](std::size_t begin, std::size_t end) {
                        for (std::size_t q = begin; q < end; ++q)
                          for (std::int64_t k = lists.offset[q]; k < lists.offset[q + 1]; ++k)
                            body(q, static_cast<std::size_t>(k));
                      });
}

}  // namespace

HostLists fetch_lists(Runtime& runtime, const PairLists<double>& lists) {
  HostLists host;
  host.offset.resize(lists.queries + 1);
  lists.offset.read_into(runtime, host.offset.data(), host.offset.size());
  host.index.resize(lists.total);
  lists.index.read_into(runtime, host.index.data(), lists.total);
  if (!lists.distance.empty()) {
    host.distance.resize(lists.total);
    lists.distance.read_into(runtime, host.distance.data(), lists.total);
  }
  return host;
}

void sort_lists(HostLists& lists, unsigned threads) {
  const bool with_distance = !lists.distance.empty();
  parallel_for_ranges(lists.queries(), kQueriesPerPiece, threads,
                      [&](std::size_t begin, std::size_t end) {
                        std::vector<std::pair<std::int32_t, double>> both;
                        for (std::size_t q = begin; q < end; ++q) {
                          const std::int64_t from = lists.offset[q], to = lists.offset[q + 1];
                          if (!with_distance) {
                            std::sort(lists.index.begin() + from, lists.index.begin() + to);
                            continue;
                          }
                          both.clear();
                          for (std::int64_t k = from; k < to; ++k)
                            both.emplace_back(lists.index[k], lists.distance[k]);
                          std::sort(both.begin(), both.end());
                          for (std::int64_t k = from; k < to; ++k) {
                            lists.index[k] = both[k - from].first;
                            lists.distance[k] = both[k - from].second;
                          }
                        }
                      });
}

py::array object_array_of_lists(const HostLists& lists, const std::vector<py::ssize_t>& shape,
                                PyObject* const* ints) {
  py::array result = numpy().attr("empty")(py::tuple(py::cast(shape)), py::arg("dtype") = "O");
  auto** slot = static_cast<PyObject**>(result.mutable_data());
  CollectorPaused paused;
  for (std::size_t q = 0; q < lists.queries(); ++q) {
    PyObject* list = list_of(lists, q, ints);
    Py_XDECREF(slot[q]);  // the None numpy.empty put there
    slot[q] = list;
  }
  return result;
}

py::list list_of_lists(const HostLists& lists, PyObject* const* ints) {
  py::list result(lists.queries());
  CollectorPaused paused;
  for (std::size_t q = 0; q < lists.queries(); ++q)
    PyList_SET_ITEM(result.ptr(), static_cast<Py_ssize_t>(q), list_of(lists, q, ints));
  return result;
}

py::object pair_set(const HostLists& lists, PyObject* const* ints) {
  py::set result;
  CollectorPaused paused;
  for (std::size_t q = 0; q < lists.queries(); ++q)
    for (std::int64_t k = lists.offset[q]; k < lists.offset[q + 1]; ++k) {
      py::object pair =
          py::reinterpret_steal<py::object>(PyTuple_Pack(2, ints[q], ints[lists.index[k]]));
      if (!pair || PySet_Add(result.ptr(), pair.ptr()) < 0) throw py::error_already_set();
    }
  return std::move(result);
}

py::array pair_array(const HostLists& lists, unsigned threads) {
  const py::ssize_t total = static_cast<py::ssize_t>(lists.index.size());
  py::array_t<py::ssize_t> pairs(std::vector<py::ssize_t>{total, 2});
  py::ssize_t* row = pairs.mutable_data();
  {
    py::gil_scoped_release release;
    for_pairs(lists, threads, [&](std::size_t q, std::size_t k) {
      row[2 * k] = static_cast<py::ssize_t>(q);
      row[2 * k + 1] = lists.index[k];
    });
  }
  return std::move(pairs);
}

py::object sparse_result(const HostLists& lists, py::ssize_t rows, py::ssize_t columns,
                         const std::string& output_type, PyObject* const* row_ints,
                         PyObject* const* column_ints, unsigned threads) {
  const std::size_t total = lists.index.size();
  if (output_type == "dict") {
    py::dict result;
    CollectorPaused paused;
    for (std::size_t q = 0; q < lists.queries(); ++q)
      for (std::int64_t k = lists.offset[q]; k < lists.offset[q + 1]; ++k) {
        py::object key = py::reinterpret_steal<py::object>(
            PyTuple_Pack(2, row_ints[q], column_ints[lists.index[k]]));
        if (!key) throw py::error_already_set();
        result[key] = py::float_(lists.distance[k]);
      }
    return std::move(result);
  }
  if (output_type == "ndarray") {
    // cKDTree's record: intp i, intp j, float64 v, aligned.
    struct Entry {
      std::int64_t i, j;
      double v;
    };
    py::list fields;
    fields.append(py::make_tuple("i", numpy().attr("intp")));
    fields.append(py::make_tuple("j", numpy().attr("intp")));
    fields.append(py::make_tuple("v", numpy().attr("float64")));
    py::object dtype = numpy().attr("dtype")(fields, py::arg("align") = true);
    py::array result = numpy().attr("empty")(py::make_tuple(total), py::arg("dtype") = dtype);
    auto* entry = static_cast<Entry*>(result.mutable_data());
    py::gil_scoped_release release;
    for_pairs(lists, threads, [&](std::size_t q, std::size_t k) {
      entry[k] = {static_cast<std::int64_t>(q), lists.index[k], lists.distance[k]};
    });
    return std::move(result);
  }
  const bool matrix = output_type == "coo_matrix" || output_type == "dok_matrix";
  const bool array = output_type == "coo_array" || output_type == "dok_array";
  if (!matrix && !array) throw py::value_error("Invalid output type");
  py::array_t<py::ssize_t> i(static_cast<py::ssize_t>(total)), j(static_cast<py::ssize_t>(total));
  py::array_t<double> v(static_cast<py::ssize_t>(total));
  py::ssize_t* pi = i.mutable_data();
  py::ssize_t* pj = j.mutable_data();
  double* pv = v.mutable_data();
  {
    py::gil_scoped_release release;
    for_pairs(lists, threads, [&](std::size_t q, std::size_t k) {
      pi[k] = static_cast<py::ssize_t>(q);
      pj[k] = lists.index[k];
      pv[k] = lists.distance[k];
    });
  }
  py::module_ sparse = py::module_::import("scipy.sparse");
  py::object coo = sparse.attr(matrix ? "coo_matrix" : "coo_array")(
      py::make_tuple(v, py::make_tuple(i, j)), py::arg("shape") = py::make_tuple(rows, columns));
  if (output_type == "dok_matrix" || output_type == "dok_array") return coo.attr("todok")();
  return coo;
}

}  // namespace treefix::python
