#pragma once
//! \file The kepler family's tuning (placeholder until the family lands; see issue 3).
namespace archscan {
struct kepler_tuning {
  using family = kepler_family;
};
}  // namespace archscan
