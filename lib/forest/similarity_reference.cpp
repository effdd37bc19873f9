// The similarity's reference: both definitions on the nested trees, straight from their
// statement (similarity.hpp), arcs paired by merging sorted labels (weighted) or by position
// (thesis). Explicit stacks instead of recursion, so a chain of a million nodes is fine.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <utility>

#include "treefix/core/error.hpp"
#include "treefix/forest/similarity.hpp"

namespace treefix {

void check_similarity_parameters(const SimilarityParameters& p) {
  const double most = p.definition == SimilarityDefinition::thesis ? 0.5 : 1.0;
  if (!(p.degradation >= 0.0 && p.degradation <= most)) {
    std::ostringstream message;
    message << "similarity: degradation factor " << p.degradation << " is outside [0, " << most
            << "] (the " << to_string(p.definition) << " definition";
    if (p.definition == SimilarityDefinition::thesis)
      message << ": above 0.5 an unpaired leaf would score more than its share";
    throw InputError(message.str() + ")");
  }
}

namespace {

class Reference {
 public:
  explicit Reference(const SimilarityParameters& p)
      : p_(p), thesis_(p.definition == SimilarityDefinition::thesis) {}

  double similarity(const SemanticTree& a, const SemanticTree& b) {
    struct Frame {
      const SemanticTree *a, *b;
      std::vector<std::pair<std::size_t, std::size_t>> pairs;  // child indices, a's and b's
      std::size_t next = 0;
      double gain = 0, loss = 0;
    };
    std::vector<Frame> stack;
    double result = 0;
    bool have_result = start(a, b, result, stack);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (have_result) {  // the pair f.next - 1 is done
        const auto [i, j] = f.pairs[f.next - 1];
        const double s = p_.sqrt_adjustment ? std::sqrt(result) : result;
        const double share = (weight(*f.a, i) + weight(*f.b, j)) / 2;
        f.gain += share * s;
        f.loss += share * (1.0 - s);
        have_result = false;
      }
      if (f.next == f.pairs.size()) {
        result = combine(f.gain, f.loss);
        have_result = true;
        stack.pop_back();
        continue;
      }
      const auto [i, j] = f.pairs[f.next++];
      const SemanticTree &x = f.a->children[i], &y = f.b->children[j];
      have_result = start(x, y, result, stack);  // may push: f is not used after this
    }
    return result;
  }

 private:
  // Weight of arc i of t, renormalised over its siblings.
  static double weight(const SemanticTree& t, std::size_t i) {
    return t.weights[i] / std::accumulate(t.weights.begin(), t.weights.end(), 0.0);
  }

  // S (weighted) or P (thesis) of the subtree u reached by an arc of weight w.
  double simplicity(const SemanticTree& u, double w) const {
    struct Frame {
      const SemanticTree* node;
      double w;
      std::size_t next = 0;
      double sum = 0;
    };
    std::vector<Frame> stack = {{&u, w}};
    double value = 0;
    while (true) {
      Frame& f = stack.back();
      if (f.next < f.node->children.size()) {
        const std::size_t i = f.next++;
        stack.push_back({&f.node->children[i], weight(*f.node, i)});  // f is not used after this
        continue;
      }
      const std::size_t k = f.node->children.size();
      if (k == 0)
        value = thesis_ ? p_.degradation * f.w : 1.0;
      else
        value = thesis_ ? f.sum / k : p_.degradation * f.sum;
      const double arc = f.w;
      stack.pop_back();
      if (stack.empty()) return value;
      stack.back().sum += thesis_ ? value : arc * value;
    }
  }

  // The gain (formula) and the loss (share - gain, when weights sum to 1) of a node's terms give
  // its similarity: the gain up to 1/2, else 1 - loss; each is accurate at its end of [0, 1].
  static double combine(double gain, double loss) {
    return std::clamp(gain <= 0.5 ? gain : 1.0 - loss, 0.0, 1.0);
  }

  // Child i of t has no partner: its gain and loss go to the frame.
  template <class Frame>
  void unpaired(const SemanticTree& t, std::size_t i, Frame& f) const {
    const double w = weight(t, i);
    const SemanticTree& c = t.children[i];
    if (thesis_) {
      const double q = c.leaf() ? p_.degradation : simplicity(c, w);
      f.gain += w * q;
      f.loss += w * (0.5 - q);
    } else {
      const double s = simplicity(c, w);
      f.gain += w / 2 * p_.degradation * s;
      f.loss += w / 2 * (1.0 - p_.degradation * s);
    }
  }

  // Either the similarity of (a, b) at once (true, in `result`), or a frame of child pairs.
  template <class Stack>
  bool start(const SemanticTree& a, const SemanticTree& b, double& result, Stack& stack) const {
    if (a.label != b.label) {
      result = 0;
      return true;
    }
    if (a.leaf() || b.leaf()) {
      const SemanticTree& u = a.leaf() ? b : a;
      const double s = u.leaf() ? 1.0 : simplicity(u, 1.0);
      result = u.leaf() ? 1.0 : thesis_ ? s : s / 2;
      return true;
    }
    typename Stack::value_type f{&a, &b, {}};
    if (thesis_) {
      const std::size_t common = std::min(a.children.size(), b.children.size());
      for (std::size_t i = 0; i < common; ++i) f.pairs.emplace_back(i, i);
      for (std::size_t i = common; i < a.children.size(); ++i) unpaired(a, i, f);
      for (std::size_t j = common; j < b.children.size(); ++j) unpaired(b, j, f);
    } else {
      // The paper's merge of both arc lists in label order.
      auto by_label = [](const SemanticTree& t) {
        std::vector<std::size_t> index(t.children.size());
        std::iota(index.begin(), index.end(), 0);
        std::sort(index.begin(), index.end(),
                  [&](std::size_t x, std::size_t y) { return t.arc_labels[x] < t.arc_labels[y]; });
        return index;
      };
      const auto ia = by_label(a), ib = by_label(b);
      std::size_t x = 0, y = 0;
      while (x < ia.size() || y < ib.size()) {
        if (y == ib.size() || (x < ia.size() && a.arc_labels[ia[x]] < b.arc_labels[ib[y]]))
          unpaired(a, ia[x++], f);
        else if (x == ia.size() || b.arc_labels[ib[y]] < a.arc_labels[ia[x]])
          unpaired(b, ib[y++], f);
        else
          f.pairs.emplace_back(ia[x++], ib[y++]);
      }
    }
    if (f.pairs.empty()) {
      result = combine(f.gain, f.loss);
      return true;
    }
    stack.push_back(std::move(f));
    return false;
  }

  SimilarityParameters p_;
  bool thesis_;
};

}  // namespace

double tree_similarity_reference(const SemanticTree& a, const SemanticTree& b,
                                 const SimilarityParameters& p) {
  check_similarity_parameters(p);
  return Reference(p).similarity(a, b);
}

}  // namespace treefix
