#pragma once
//! \file The turing family's dispatch (being built; see issue 4).
#include <archscan/dispatch/family.cuh>
