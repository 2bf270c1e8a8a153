// The by-key suite's oracles (scan_by_key_oracle.cuh), compiled once for the typed cases of every
// family's unit (scan_by_key_family.cu.in): each value type and operator of scan_value_ops, with
// the two predicates the cases use. A case without its oracle here fails to link.

#include <tuple>

#include <thrust/functional.h>

#include "thrust/scan_by_key_oracle.cuh"

namespace archscan::test::by_key_suite {
namespace {

template <class VO, class Pred>
constexpr auto oracle_of = &oracle_scan_by_key<typename VO::value, typename VO::op, Pred>;

template <class... VO>
constexpr auto oracles_of(type_list<VO...>) {
  return std::make_tuple(oracle_of<VO, thrust::equal_to<int>>..., oracle_of<VO, non_decreasing>...);
}

}  // namespace

// Taking their addresses instantiates them here; the family units see their declarations alone.
extern const auto instantiated_oracles = oracles_of(scan_value_ops{});

}  // namespace archscan::test::by_key_suite
