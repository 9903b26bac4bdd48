// SPDX-License-Identifier: MIT
// The options `recommend` and `check` share: the budget, the frequency, how to read the models, the inputs.
#include "budget_options.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "contention.hpp"
#include "load.hpp"
#include "units.hpp"
#include "upstream.hpp"

namespace fputune::cli {

namespace {

std::string command_line(const std::string& command, const Args& args) {
    std::string s = "fputune " + command;
    for (const auto& a : args) {
        bool plain = !a.empty() && a.find_first_of(" \t'\"*?$\\") == std::string::npos;
        s += " " + (plain ? a : "'" + a + "'");
    }
    return s;
}

double parse_margin(const std::string& text) {
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || used == 0)
        throw UsageError("--margin " + text +
                         ": not a number; give a factor of at least 1, e.g. 1.2 for 20 % headroom");
    return v;
}

// "--round octets: expected block, kib or pow2" for a value that is not one of the enum's names.
template <typename E>
E parse_option(const std::string& option, const std::string& text, std::optional<E> (*parse)(std::string_view) noexcept,
               const std::string& expected) {
    if (const std::optional<E> value = parse(text)) return *value;
    throw UsageError("--" + option + " " + text + ": " + expected);
}

constexpr const char* kCacheExpected = "expected cold or hot";
constexpr const char* kQuantileExpected = "expected p90 or p99 (of uninterrupted samples)";

}  // namespace

RecommendOptions budget_options(const po::variables_map& vm, const std::string& command, const Args& args) {
    // The parsers and validate() throw std::invalid_argument naming the option: bad usage, exit 2.
    RecommendOptions o;
    if (!vm.count("budget")) throw UsageError("--budget is required, e.g. --budget 30us");
    o.question.budget_s = parse_duration_s(vm["budget"].as<std::string>(), "--budget");
    o.question.min_freq_hz = parse_frequency_hz(vm["min-freq"].as<std::string>(), "--min-freq");
    if (!vm.count("force")) {
        check_plausible_budget(o.question.budget_s, "--budget");
        check_plausible_min_freq(o.question.min_freq_hz, "--min-freq");
    }
    o.question.margin = parse_margin(vm["margin"].as<std::string>());
    if (vm.count("round"))
        o.round = parse_option("round", vm["round"].as<std::string>(), parse_round, "expected block, kib or pow2");
    if (vm.count("cache")) o.question.cache = cache_option(vm["cache"].as<std::string>());
    if (vm.count("dirty"))
        o.dirty = parse_option("dirty", vm["dirty"].as<std::string>(), parse_dirty_state,
                               "expected xmm, ymm, zmm or none (thresholds with the user state already saved)");
    o.question.quantile = quantile_option(vm["quantile"].as<std::string>());
    o.question.contention = contention_option(vm).text();
    if (vm.count("emit"))
        o.emit = parse_option("emit", vm["emit"].as<std::string>(), parse_emit, "expected conservative or central");
    if (vm.count("per-algorithm"))
        o.per_algorithm =
            parse_option("per-algorithm", vm["per-algorithm"].as<std::string>(), parse_per_algorithm,
                         "expected selected (the variant the kernel runs on each swept CPU) or slowest (the smallest "
                         "limit over every variant)");
    if (vm.count("linux")) o.linux_version = resolve_linux_version(vm["linux"].as<std::string>());
    o.command_line = command_line(command, args);
    validate(o);
    return o;
}

void add_budget_options(po::options_description& desc) {
    desc.add_options()(
        "from", po::value<std::vector<std::string>>()->multitoken()->composing(),
        "sweep files, model files or reference CSVs (default fputune-sweep.json); several machines merge "
        "to the most conservative value")("budget", po::value<std::string>(),
                                          "longest acceptable FPU section, e.g. 30us (ns, us, ms, s)")(
        "min-freq", po::value<std::string>()->default_value("1GHz"),
        "lowest core frequency to plan for (Hz, kHz, MHz, GHz)")(
        "margin", po::value<std::string>()->default_value("1.0"), "safety factor >= 1: limits fit budget / margin")(
        "cache", po::value<std::string>()->default_value("cold"), "cold | hot: which sweep points to use")(
        "dirty", po::value<std::string>(), "xmm | ymm | zmm | none: user state for the thresholds (default: as swept)")(
        "quantile", po::value<std::string>()->default_value("p99"),
        "p99 | p90: the cost line that bounds a section (p99 of samples not hit by an interruption; p90 is looser: "
        "about 1 section in 10 of that length runs over the predicted time by a few %)")(
        "emit", po::value<std::string>()->default_value("conservative"),
        "conservative | central: which end of each limit's interval is the limit (the interval combines the fit's "
        "95 % band and the spread between the sweep's rounds)")(
        "per-algorithm", po::value<std::string>()->default_value("slowest"),
        "slowest | selected: what an algorithm's constant stands for: its slowest variant (a stand-in for older CPUs) "
        "or the variant the kernel selects on each swept CPU")(
        "kernel,k", po::value<std::vector<std::string>>()->composing(),
        "show only these kernels: a glob, an algorithm (all its variants), a kind (hash, cipher, raid) or all "
        "(repeatable)")(
        "linux", po::value<std::string>(), linux_option_help().c_str())(
        "contention", po::value<std::string>()->default_value(kContentionDefault),
        "quiet | observed | FACTOR | as-measured: the contention level c each bound is stated at (quiet = 1, the "
        "core's other thread idle; observed = the sweep's p90 level; FACTOR from 1 to 10, e.g. 2; as-measured = "
        "the rounds as they were); see docs/contention.md")(
        "force", "accept a --budget outside 100ns..1s or a --min-freq outside 1MHz..10GHz");
}

std::vector<NamedPath> source_paths(const po::variables_map& vm) {
    std::vector<NamedPath> paths;
    if (vm.count("from"))
        for (const auto& f : vm["from"].as<std::vector<std::string>>()) paths.push_back({"--from", f});
    else
        paths.push_back({"--from", "fputune-sweep.json"});
    return paths;
}

std::vector<std::string> from_paths(const po::variables_map& vm) {
    if (vm.count("from")) return vm["from"].as<std::vector<std::string>>();
    if (!std::filesystem::exists("fputune-sweep.json"))
        throw UsageError(
            "no fputune-sweep.json in this folder: run `fputune sweep` first, or name inputs with --from FILE...");
    return {"fputune-sweep.json"};
}

std::vector<ModelFile> load_sources(const po::variables_map& vm) {
    const std::vector<std::string> from = from_paths(vm);
    std::vector<std::string> globs;
    if (vm.count("kernel")) globs = vm["kernel"].as<std::vector<std::string>>();
    reject_version_as_glob(globs);
    const ContentionTarget contention = contention_option(vm);
    std::vector<ModelFile> sources;
    for (const auto& f : from) sources.push_back(load_models(f, globs, contention));
    return sources;
}

const std::string& linux_option_help() {
    static const std::string help = [] {
        return upstream_versions_text(" | ") + ": the Linux version whose upstream sections are judged (default " +
               newest_upstream_version() + ", the newest the data knows)";
    }();
    return help;
}

void reject_version_as_glob(const std::vector<std::string>& globs) {
    for (const auto& g : globs)
        if (!g.empty() && g.find_first_not_of("0123456789.") == std::string::npos && g.find('.') != std::string::npos)
            throw UsageError("--kernel " + g +
                             " names kernels (globs such as 'sha256-*'); for the Linux version whose upstream "
                             "sections are judged, give --linux " +
                             g);
}

// For commands that take some of these options without a required --budget (simulate).
std::string command_line_of(const std::string& command, const Args& args) { return command_line(command, args); }
double margin_option(const std::string& text) { return parse_margin(text); }
Cache cache_option(const std::string& text) { return parse_option("cache", text, parse_cache, kCacheExpected); }
ContentionTarget contention_option(const po::variables_map& vm) {
    if (!vm.count("contention")) return {};
    const std::string text = vm["contention"].as<std::string>();
    const std::optional<ContentionTarget> t = parse_contention_target(text);
    if (!t) throw UsageError(fmt::format("--contention '{}': expected {}", text, kContentionChoices));
    return *t;
}

Quantile quantile_option(const std::string& text) {
    return parse_option("quantile", text, parse_quantile, kQuantileExpected);
}

}  // namespace fputune::cli
