// SPDX-License-Identifier: MIT
// Cost models fitted to sweeps (placeholder header until the models land).
#pragma once
