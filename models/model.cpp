// SPDX-License-Identifier: MIT
// Cost models (placeholder translation unit until the models land).
#include "model.hpp"
