// SPDX-License-Identifier: MIT
// Models and their files, in one include: what a model is, fitting a sweep, thresholds, the
// fputune.model/2 codec, the reference CSV reader, and loading any of them by content.
#pragma once

#include "fit_sweep.hpp"
#include "kernel_globs.hpp"
#include "load.hpp"
#include "model.hpp"
#include "model_json.hpp"
#include "reference_csv.hpp"
#include "thresholds.hpp"
