// Semantic trees on the host: copying, destroying and comparing without recursion; the interner.
#include "treefix/forest/semantic_tree.hpp"

#include <algorithm>
#include <utility>

namespace treefix {

SemanticTree::SemanticTree(const SemanticTree& other)
    : label(other.label), arc_labels(other.arc_labels), weights(other.weights) {
  // Each copied node's children vector is sized once before its children are filled, so the
  // pointers on the stack stay valid.
  std::vector<std::pair<const SemanticTree*, SemanticTree*>> pending = {{&other, this}};
  while (!pending.empty()) {
    auto [from, to] = pending.back();
    pending.pop_back();
    to->children.resize(from->children.size());
    for (std::size_t i = 0; i < from->children.size(); ++i) {
      const SemanticTree& source = from->children[i];
      SemanticTree& target = to->children[i];
      target.label = source.label;
      target.arc_labels = source.arc_labels;
      target.weights = source.weights;
      if (!source.children.empty()) pending.emplace_back(&source, &target);
    }
  }
}

SemanticTree& SemanticTree::operator=(const SemanticTree& other) {
  if (this != &other) *this = SemanticTree(other);  // the old nodes go through ~SemanticTree
  return *this;
}

SemanticTree::~SemanticTree() {
  // Detach every descendant onto a flat list before it is destroyed: a node reaches its
  // destructor with no children, so destruction never nests.
  if (children.empty()) return;
  std::vector<SemanticTree> doomed = std::move(children);
  while (!doomed.empty()) {
    SemanticTree node = std::move(doomed.back());
    doomed.pop_back();
    for (auto& child : node.children) doomed.push_back(std::move(child));
    node.children.clear();  // moved-from children: empty, nothing below them
  }
}

SemanticTree& SemanticTree::add_child(std::string arc_label, double weight, SemanticTree child) {
  arc_labels.push_back(std::move(arc_label));
  weights.push_back(weight);
  children.push_back(std::move(child));
  return children.back();
}

bool operator==(const SemanticTree& a, const SemanticTree& b) {
  std::vector<std::pair<const SemanticTree*, const SemanticTree*>> pending = {{&a, &b}};
  while (!pending.empty()) {
    auto [x, y] = pending.back();
    pending.pop_back();
    if (x->label != y->label || x->arc_labels != y->arc_labels || x->weights != y->weights ||
        x->children.size() != y->children.size())
      return false;
    for (std::size_t i = 0; i < x->children.size(); ++i)
      pending.emplace_back(&x->children[i], &y->children[i]);
  }
  return true;
}

std::size_t node_count(const SemanticTree& tree) {
  std::size_t count = 0;
  std::vector<const SemanticTree*> pending = {&tree};
  while (!pending.empty()) {
    const SemanticTree* node = pending.back();
    pending.pop_back();
    ++count;
    for (auto& c : node->children) pending.push_back(&c);
  }
  return count;
}

namespace {

// FNV-1a: labels are a few bytes, where a byte loop beats a general-purpose hash call.
std::uint32_t hash_of(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return hash;
}

}  // namespace

std::size_t Interner::slot_of(std::string_view name, std::uint32_t hash) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t s = hash & mask;; s = (s + 1) & mask) {
    const Slot& slot = slots_[s];
    if (slot.id < 0 || (slot.hash == hash && names_[slot.id] == name)) return s;
  }
}

void Interner::grow() {
  std::vector<Slot> old(std::max<std::size_t>(16, 2 * slots_.size()), Slot{0, -1});
  slots_.swap(old);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id < 0) continue;
    std::size_t s = slot.hash & mask;
    while (slots_[s].id >= 0) s = (s + 1) & mask;
    slots_[s] = slot;
  }
}

std::int32_t Interner::id(std::string_view name) {
  if (2 * (names_.size() + 1) > slots_.size()) grow();
  const std::uint32_t hash = hash_of(name);
  Slot& slot = slots_[slot_of(name, hash)];
  if (slot.id >= 0) return slot.id;
  slot = {hash, static_cast<std::int32_t>(names_.size())};
  names_.emplace_back(name);
  return slot.id;
}

std::int32_t Interner::find(std::string_view name) const {
  if (slots_.empty()) return -1;
  return slots_[slot_of(name, hash_of(name))].id;
}

}  // namespace treefix
