// thrust::cuda::par's inclusive_scan and exclusive_scan of 1024-byte values (value_size.cuh), the
// oracle of value_size_1024_inclusive.cu and value_size_1024_exclusive.cu, compiled apart from them:
// CUB's kernels for these items take minutes of ptxas time of their own. (CUB's by-key kernel does
// not compile for them at all: value_size_1024_by_key.cu checks against the host reference alone.)

#include "thrust/value_size.cuh"

namespace archscan::test {

template <value_form F>
blob<1024>* par_value_form_1024(const int* keys, const blob<1024>* in, std::int64_t n, blob<1024>* out,
                                const blob<1024>& init) {
  return run_value_form<F>(thrust::cuda::par, keys, in, n, out, init);
}

template blob<1024>* par_value_form_1024<value_form::inclusive>(const int*, const blob<1024>*, std::int64_t,
                                                               blob<1024>*, const blob<1024>&);
template blob<1024>* par_value_form_1024<value_form::exclusive_init>(const int*, const blob<1024>*, std::int64_t,
                                                                    blob<1024>*, const blob<1024>&);

}  // namespace archscan::test
