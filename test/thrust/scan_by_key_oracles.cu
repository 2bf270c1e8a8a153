// The by-key suite's oracles (scan_by_key_oracle.cuh), explicitly instantiated once for the typed
// cases of every family's unit (scan_by_key_family.cu.in), which see their declarations alone: each
// value type and operator of scan_value_ops, with the two predicates the cases use.

#include <cstdint>
#include <type_traits>

#include <thrust/functional.h>

#include "thrust/scan_by_key_oracle.cuh"

namespace archscan::test::by_key_suite {

// The value types and operators, as scan_value_ops lists them (checked below).
#define ARCHSCAN_BY_KEY_VALUE_OPS(X)                                                                   \
  X(std::int32_t, thrust::plus<>)                                                                      \
  X(std::int32_t, thrust::maximum<>)                                                                   \
  X(std::uint8_t, thrust::plus<>)                                                                      \
  X(std::int8_t, thrust::plus<std::int8_t>)                                                            \
  X(std::int16_t, thrust::plus<std::int16_t>)                                                          \
  X(std::int64_t, thrust::plus<>)                                                                      \
  X(float, thrust::plus<>)                                                                             \
  X(double, thrust::plus<>)                                                                            \
  X(mat2, mat2_mul)

// The same list as a type, behind a leading void that the macro's commas follow.
#define ARCHSCAN_VALUE_OP(T, Op) , value_op<T, Op>
template <class List>
struct without_first;
template <class... VO>
struct without_first<type_list<void, VO...>> {
  using type = type_list<VO...>;
};
static_assert(std::is_same_v<typename without_first<type_list<void ARCHSCAN_BY_KEY_VALUE_OPS(ARCHSCAN_VALUE_OP)>>::type,
                             scan_value_ops>,
              "the oracles instantiated here are those of scan_value_ops (test/support/cases.cuh)");
#undef ARCHSCAN_VALUE_OP

#define ARCHSCAN_ORACLE(T, Op, Pred)                                                                     \
  template void oracle_scan_by_key<T, Op, Pred>(device_buffer<int>&, device_buffer<T>&, device_buffer<T>&, \
                                                device_buffer<T>&, std::int64_t, bool, T, Op, Pred);
#define ARCHSCAN_ORACLES(T, Op) ARCHSCAN_ORACLE(T, Op, thrust::equal_to<int>) ARCHSCAN_ORACLE(T, Op, non_decreasing)
ARCHSCAN_BY_KEY_VALUE_OPS(ARCHSCAN_ORACLES)
#undef ARCHSCAN_ORACLES
#undef ARCHSCAN_ORACLE
#undef ARCHSCAN_BY_KEY_VALUE_OPS

}  // namespace archscan::test::by_key_suite
