#pragma once
//! \file The turing family's tuning (placeholder until the family lands; see issue 4).
namespace archscan {
struct turing_tuning {
  using family = turing_family;
};
}  // namespace archscan
