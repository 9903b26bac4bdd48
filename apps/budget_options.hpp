// SPDX-License-Identifier: MIT
// The options `recommend` and `check` share, parsed once (defined in budget_options.cpp).
#pragma once

#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "cli.hpp"
#include "contention.hpp"
#include "model.hpp"
#include "recommend_options.hpp"

namespace fputune::cli {

// --from, --budget, --min-freq, --margin, --cache, --dirty, --quantile, -k, --force (a budget or frequency
// outside physical sense, see units.hpp, is refused without it).
void add_budget_options(po::options_description& desc);
// The options as given (UsageError naming the option when one is wrong); `command` and `args` are kept
// as the command line for the provenance.
RecommendOptions budget_options(const po::variables_map& vm, const std::string& command, const Args& args);
// The --from inputs (default fputune-sweep.json; UsageError when it is not here either).
std::vector<std::string> from_paths(const po::variables_map& vm);
// The models of every --from input (default fputune-sweep.json), limited to the -k globs.
std::vector<ModelFile> load_sources(const po::variables_map& vm);
// The --from inputs as named paths, for refuse_same_files().
std::vector<NamedPath> source_paths(const po::variables_map& vm);
// For commands that take some of these options without a required --budget (simulate): the command line
// for the provenance, and --margin's value (UsageError when it is not a number).
std::string command_line_of(const std::string& command, const Args& args);
double margin_option(const std::string& text);
// --linux's help (the versions the upstream data knows); a -k glob that is a version ("6.12") refused with a
// UsageError that points at --linux.
const std::string& linux_option_help();
void reject_version_as_glob(const std::vector<std::string>& globs);
// --cache and --quantile (UsageError naming the value and the accepted ones otherwise).
Cache cache_option(const std::string& text);
Quantile quantile_option(const std::string& text);
// --contention (quiet when the command has no such option); UsageError naming the value otherwise.
ContentionTarget contention_option(const po::variables_map& vm);

}  // namespace fputune::cli
