// SPDX-License-Identifier: MIT
// Checks the options once, with a message that names the option and says how to mend it.
#include "recommend_options.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace fputune {

void validate(const RecommendOptions& o) {
    validate(o.question);
    if (o.save_every < 1 || o.save_every > 1000000000)
        throw std::invalid_argument(
            fmt::format("--save-every {}: must be 1 .. 1e9 (1 = every one-shot pays the state save, "
                        "193 = one in 193 as in a laptop trace; --dirty none = none pays)",
                        o.save_every));
}

}  // namespace fputune
