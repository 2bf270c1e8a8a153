#pragma once
//! \file The kepler family's dispatch (being built; see issue 3).
#include <archscan/dispatch/family.cuh>
