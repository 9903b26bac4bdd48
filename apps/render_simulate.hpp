// SPDX-License-Identifier: MIT
// What `simulate` prints (and `report` shows): the simulation as plain-text tables (no parsing, no I/O).
#pragma once

#include <string>

#include "simulate.hpp"

namespace fputune {

// Per machine one table without limits (upstream's behaviour) and one with them, in Elliott 2022's columns
// (calls, cost, maxcycles, bpf, KiB, maxlen), then what the limits change, the notes and a legend.
std::string render_simulation(const Simulation& s);

}  // namespace fputune
