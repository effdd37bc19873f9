// GenSum: ill-conditioned sums with a chosen condition number (see gensum.hpp).
#include "treefix/treefix/gensum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "treefix/core/error.hpp"

namespace treefix::gensum {

namespace {

// Shewchuk's expansion sum (the algorithm of Python's math.fsum): `partials` is a list of
// non-overlapping doubles whose exact sum is the running total; each add is error-free.
class ExactAccumulator {
 public:
  void add(double x) {
    std::size_t kept = 0;
    for (double y : partials_) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const double high = x + y;
      const double low = y - (high - x);  // FastTwoSum: exact since |x| >= |y|
      if (low != 0) partials_[kept++] = low;
      x = high;
    }
    partials_.resize(kept);
    partials_.push_back(x);
  }

  // The exact total rounded to nearest (half-way cases corrected as fsum does).
  double value() const {
    if (partials_.empty()) return 0;
    std::size_t i = partials_.size() - 1;
    double high = partials_[i], low = 0;
    while (i > 0) {
      const double x = high, y = partials_[--i];
      high = x + y;
      low = y - (high - x);
      if (low != 0) break;
    }
    if (i > 0 && ((low < 0 && partials_[i - 1] < 0) || (low > 0 && partials_[i - 1] > 0))) {
      const double y = low * 2, x = high + y;
      if (y == x - high) high = x;
    }
    return high;
  }

 private:
  std::vector<double> partials_;
};

template <class T>
IllConditionedSum<T> attempt(std::size_t n, double log2_cond, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_real_distribution<double> spread(0.0, log2_cond);
  const std::size_t first = n / 2;
  std::vector<T> p(n);
  ExactAccumulator running;
  for (std::size_t i = 0; i < first; ++i) {
    double e = std::round(i == 0 ? log2_cond : i + 1 == first ? 0.0 : spread(rng));
    p[i] = static_cast<T>(std::ldexp(unit(rng), static_cast<int>(e)));
    running.add(static_cast<double>(p[i]));
  }
  const std::size_t second = n - first;
  for (std::size_t k = 0; k < second; ++k) {
    // exponents fall linearly from log2_cond to 0, so the exact sum shrinks term by term
    const double e =
        second == 1 ? 0.0 : std::round(log2_cond * (1.0 - double(k) / double(second - 1)));
    const double target = std::ldexp(unit(rng), static_cast<int>(e));
    p[first + k] = static_cast<T>(target - running.value());
    running.add(static_cast<double>(p[first + k]));
  }
  std::shuffle(p.begin(), p.end(), rng);
  IllConditionedSum<T> out;
  out.exact_sum = running.value();
  out.condition = condition_number(p);
  out.terms = std::move(p);
  return out;
}

}  // namespace

double exact_sum(const std::vector<double>& values) {
  ExactAccumulator acc;
  for (double v : values) acc.add(v);
  return acc.value();
}

template <class T>
double exact_sum_of(const std::vector<T>& values) {
  ExactAccumulator acc;
  for (T v : values) acc.add(static_cast<double>(v));
  return acc.value();
}

template <class T>
double condition_number(const std::vector<T>& terms) {
  ExactAccumulator sum, magnitude;
  for (T v : terms) {
    sum.add(static_cast<double>(v));
    magnitude.add(std::fabs(static_cast<double>(v)));
  }
  const double s = sum.value();
  return s == 0 ? std::numeric_limits<double>::infinity() : magnitude.value() / std::fabs(s);
}

template <class T>
IllConditionedSum<T> generate(std::size_t n, double condition, std::uint64_t seed) {
  if (n < 2)
    throw InputError("an ill-conditioned sum needs at least 2 terms, not " + std::to_string(n));
  const double limit = std::is_same_v<T, float> ? 1e15 : 1e30;
  if (!(condition >= 1 && condition <= limit))
    throw InputError("condition number " + std::to_string(condition) + " out of range [1, " +
                     std::to_string(limit) + "] for " +
                     (std::is_same_v<T, float> ? "float" : "double") + " terms");
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  // ORO's construction gives cond ~ n 2^b / b, not 2^b: for n terms the spread b is corrected
  // from the achieved value (it also scatters by the random last terms, so keep the closest).
  const double log_target = std::log10(condition);
  auto distance = [&](const IllConditionedSum<T>& s) {
    return std::fabs(std::log10(s.condition) - log_target);
  };
  double spread = std::log2(condition);
  IllConditionedSum<T> best;
  for (int candidate = 0; candidate < 16; ++candidate) {
    auto sum = attempt<T>(n, spread, rng);
    if (candidate == 0 || distance(sum) < distance(best)) best = std::move(sum);
    if (distance(best) < std::log10(2.0)) return best;
    if (spread == 0 && best.condition > condition) break;  // cannot go lower: shift below
    spread = std::max(0.0, spread - std::log2(best.condition / condition));
  }
  if (best.condition <= condition) return best;
  // Well-conditioned targets (below about n): even spread 0 cancels too much, since random signs
  // alone give cond ~ sqrt(n)..n. Add one positive constant s to every term: cond falls
  // monotonically towards 1 as s grows; find s by bisection on log2(s).
  const std::vector<T> base = best.terms;
  auto shifted = [&](double log2_shift) {
    IllConditionedSum<T> out;
    out.terms.resize(n);
    const double s = std::exp2(log2_shift);
    for (std::size_t i = 0; i < n; ++i)
      out.terms[i] = static_cast<T>(static_cast<double>(base[i]) + s);
    out.condition = condition_number(out.terms);
    out.exact_sum = exact_sum_of(out.terms);
    return out;
  };
  double high = 0;
  while (shifted(high).condition > condition && high < 200) high += 4;
  double low = high - 64;
  for (int step = 0; step < 40; ++step) {
    const double mid = 0.5 * (low + high);
    auto candidate = shifted(mid);
    if (distance(candidate) < distance(best)) best = candidate;
    if (distance(best) < 0.02) break;
    (candidate.condition > condition ? low : high) = mid;
  }
  return best;
}

template struct IllConditionedSum<float>;
template struct IllConditionedSum<double>;
template IllConditionedSum<float> generate<float>(std::size_t, double, std::uint64_t);
template IllConditionedSum<double> generate<double>(std::size_t, double, std::uint64_t);
template double exact_sum_of<float>(const std::vector<float>&);
template double exact_sum_of<double>(const std::vector<double>&);
template double condition_number<float>(const std::vector<float>&);
template double condition_number<double>(const std::vector<double>&);

}  // namespace treefix::gensum
