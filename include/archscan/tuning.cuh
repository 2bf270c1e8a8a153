#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Every shipped tuning, the shape they share (tuning/shape.cuh: plain data that selects a kernel
//! family and its parameters; a user's own tuning struct has the same shape) and how dispatch reads it
//! (tuning/rows.cuh), resolved per tile shape into the flat configuration the tiles take
//! (tuning/tile_config.cuh).

#include <archscan/tuning/blelloch.cuh>
#include <archscan/tuning/kepler.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/rows.cuh>
#include <archscan/tuning/shape.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <archscan/tuning/turing.cuh>
