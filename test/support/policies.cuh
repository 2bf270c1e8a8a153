#pragma once
// The policies every GPU test runs. A new family joins the whole typed suite by adding its policies here.

#include <archscan/archscan.cuh>

namespace archscan::test {

template <class... P>
struct policy_list {};

using all_policies = policy_list<
    archscan::policy<archscan::native_tuning>,
    archscan::policy<archscan::native_tuning, false>,
    archscan::policy<archscan::turing_tuning>,
    archscan::policy<archscan::turing_tuning, false>,
    archscan::policy<archscan::kepler_tuning>,
    archscan::policy<archscan::kepler_tuning, false>,
    archscan::policy<archscan::blelloch_tuning>,        // blelloch
    archscan::policy<archscan::blelloch_tuning, false>  // blelloch_nosync
    >;

}  // namespace archscan::test
