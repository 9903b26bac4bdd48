// SPDX-License-Identifier: MIT
// Reads a header's constants and judges each against the budget with the same model `recommend` uses.
#include "check.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "errors.hpp"
#include "header.hpp"
#include "select_models.hpp"
#include "stripes.hpp"
#include "text_lines.hpp"

namespace fputune {

bool CheckReport::all_pass() const {
    return std::all_of(results.begin(), results.end(), [](const CheckResult& r) { return r.pass; });
}

namespace {

// A header as the C preprocessor sees it: comments replaced by a space (a block comment may span
// lines), string and character literals kept whole, backslash-newline joined; one entry per logical
// line with the number of its first physical line. Nothing here can recurse or backtrack: the scan is
// one pass over the text.
struct LogicalLine {
    std::string text;
    int line = 0;
};

std::vector<LogicalLine> c_logical_lines(std::string_view text, const std::string& source) {
    // The same bound as every text reader's (text_lines), here on physical lines.
    (void)text_lines(text, source, kMaxHeaderLineBytes);
    text = without_bom(text);
    std::vector<LogicalLine> out;
    LogicalLine cur;
    int line = 1;
    cur.line = line;
    bool in_block = false;
    int block_start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (c == '\\' &&
            (next == '\n' || (next == '\r' && i + 2 < text.size() && text[i + 2] == '\n'))) {  // a line splice
            i += next == '\r' ? 2 : 1;
            ++line;
            continue;
        }
        if (in_block) {
            if (c == '*' && next == '/') {
                in_block = false;
                ++i;
            } else if (c == '\n') {
                ++line;
            }
            continue;
        }
        if (c == '/' && next == '*') {
            in_block = true;
            block_start = line;
            cur.text += ' ';
            ++i;
            continue;
        }
        if (c == '/' && next == '/') {  // to the end of the line (a splice continues it)
            while (i + 1 < text.size() && text[i + 1] != '\n') {
                if (text[i + 1] == '\\' && i + 2 < text.size() && text[i + 2] == '\n') {
                    i += 2;
                    ++line;
                    continue;
                }
                ++i;
            }
            continue;
        }
        if (c == '"' || c == '\'') {
            cur.text += c;
            for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) {
                cur.text += text[i];
                if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] != '\n') cur.text += text[++i];
            }
            if (i < text.size() && text[i] == c)
                cur.text += c;
            else
                --i;  // an unterminated literal ends at the newline
            continue;
        }
        if (c == '\n') {
            out.push_back(std::move(cur));
            cur = LogicalLine{};
            cur.line = ++line;
            continue;
        }
        cur.text += c == '\r' ? ' ' : c;
    }
    if (in_block) throw InputError(fmt::format("{}:{}: a /* comment that never ends", source, block_start));
    out.push_back(std::move(cur));
    return out;
}

// "#  define X 1" -> {"define", "X 1"}; not a directive -> {"", ""}.
std::pair<std::string_view, std::string_view> directive(std::string_view line) {
    line = trim(line);
    if (line.empty() || line[0] != '#') return {};
    line = trim(line.substr(1));
    std::size_t n = 0;
    while (n < line.size() && (std::isalpha(static_cast<unsigned char>(line[n])) || line[n] == '_')) ++n;
    return {line.substr(0, n), trim(line.substr(n))};
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// An integer constant as C writes one: decimal, 0x hex, or octal (a leading 0); U/L suffixes;
// parentheses around it. nullopt: not one (an expression, a cast, a string).
struct Literal {
    std::uint64_t value = 0;
    bool octal = false;  // 0 followed by digits: C reads it in base 8 (and 09 is not valid C at all)
    bool overflow = false;  // more than 64 bits
    std::string text;
};
std::optional<Literal> integer_literal(std::string_view v) {
    v = trim(v);
    while (v.size() >= 2 && v.front() == '(' && v.back() == ')') v = trim(v.substr(1, v.size() - 2));
    Literal lit;
    lit.text = std::string(v);
    std::size_t end = v.size();
    while (end > 0 && std::string_view("uUlL").find(v[end - 1]) != std::string_view::npos) --end;
    const std::string_view suffix = v.substr(end);
    std::string lower;
    for (char c : suffix) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!(lower.empty() || lower == "u" || lower == "l" || lower == "ul" || lower == "lu" || lower == "ll" ||
          lower == "ull" || lower == "llu"))
        return std::nullopt;
    std::string_view digits = v.substr(0, end);
    int base = 10;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    } else if (digits.size() > 1 && digits[0] == '0') {
        lit.octal = true;
        if (digits.find_first_of("89") == std::string_view::npos) base = 8;  // what C makes of it, for the message
    }
    if (digits.empty()) return std::nullopt;
    for (char c : digits)
        if (!(base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c))))
            return std::nullopt;
    if (lit.octal && base == 10) return lit;  // 08, 09: not a C constant at all; refused by name below
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), lit.value, base);
    if (ec == std::errc::result_out_of_range)
        lit.overflow = true;
    else if (ec != std::errc() || ptr != digits.data() + digits.size())
        return std::nullopt;
    return lit;
}

bool is_limit_name(std::string_view name) {
    auto ends = [&](std::string_view suffix) {
        return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
    };
    return ends("_FPU_BYTES") || ends("_SIMD_MIN_BYTES");
}

// One level of #if / #ifdef / #ifndef: whether its branch is live, and whether a branch already was.
struct Conditional {
    enum class State { live_known, live_unknown, dead } state;
    bool taken = false;  // a branch known to be live was seen (later #elif / #else are dead)
    bool unknown = false;  // a branch whose condition we cannot evaluate was seen
    bool parent_live = true;
    int line = 0;
};

// #if 0 / #if 1 (any integer constant) are evaluated; other conditions (#ifdef CONFIG_X, an include
// guard's #ifndef) are taken as live: a header is checked as written.
std::optional<bool> known_condition(std::string_view expr) {
    const auto lit = integer_literal(expr);
    if (!lit || lit->overflow) return std::nullopt;
    return lit->value != 0;
}

}  // namespace

std::vector<HeaderConstant> parse_header_constants(const std::string& text, std::vector<std::string>& skipped,
                                                   const std::string& source) {
    std::vector<HeaderConstant> out;
    std::vector<Conditional> stack;
    auto live = [&] {
        return stack.empty() || (stack.back().parent_live && stack.back().state != Conditional::State::dead);
    };
    std::map<std::string, std::size_t> defined;  // name -> index in out
    for (const LogicalLine& l : c_logical_lines(text, source)) {
        const auto [name, rest] = directive(l.text);
        auto fail = [&](const std::string& why) { return InputError(fmt::format("{}:{}: {}", source, l.line, why)); };
        if (name == "if" || name == "ifdef" || name == "ifndef") {
            if (stack.size() >= 64) throw fail("#if nested more than 64 deep");
            Conditional c{Conditional::State::live_unknown, false, false, live(), l.line};
            const auto known = name == "if" ? known_condition(rest) : std::nullopt;
            if (known) {
                c.state = *known ? Conditional::State::live_known : Conditional::State::dead;
                c.taken = *known;
            } else {
                c.unknown = true;
            }
            stack.push_back(c);
        } else if (name == "elif" || name == "else") {
            if (stack.empty()) throw fail("#" + std::string(name) + " without #if");
            Conditional& c = stack.back();
            const auto known = name == "elif" ? known_condition(rest) : std::optional<bool>(true);
            if (c.taken || (known && !*known))
                c.state = Conditional::State::dead;
            else if (known && !c.unknown)
                c.state = Conditional::State::live_known, c.taken = true;
            else
                c.state = Conditional::State::live_unknown, c.unknown = true;
        } else if (name == "endif") {
            if (stack.empty()) throw fail("#endif without #if");
            stack.pop_back();
        } else if (name == "undef") {
            std::string_view id = rest.substr(0, std::min(rest.size(), rest.find_first_of(" \t")));
            if (live() && defined.count(std::string(id))) {
                out.erase(out.begin() + static_cast<std::ptrdiff_t>(defined[std::string(id)]));
                defined.clear();
                for (std::size_t i = 0; i < out.size(); ++i) defined[out[i].name] = i;
            }
        } else if (name == "define") {
            if (rest.empty() || !is_ident_start(rest[0])) throw fail("#define without a macro name");
            std::size_t n = 0;
            while (n < rest.size() && is_ident(rest[n])) ++n;
            const std::string id(rest.substr(0, n));
            const std::string_view value = trim(rest.substr(n));
            if (n < rest.size() && rest[n] == '(') continue;  // a function-like macro
            if (value.empty()) continue;  // an include guard or a flag
            if (!live()) {
                if (is_limit_name(id))
                    skipped.push_back(fmt::format("{} (line {}): inside #if 0 (or a branch not taken)", id, l.line));
                continue;
            }
            const auto lit = integer_literal(value);
            if (!lit) {
                skipped.push_back(fmt::format("{} (line {}): value is not an integer constant", id, l.line));
                continue;
            }
            if (is_limit_name(id)) {
                if (lit->overflow)
                    throw fail(fmt::format("{} {}: does not fit in 64 bits; a section limit is a count of bytes", id,
                                           printable(lit->text)));
                if (lit->octal)
                    throw fail(fmt::format(
                        "{} {}: C reads a leading 0 as octal{}; write the number without it", id, lit->text,
                        lit->text.find_first_of("89") == std::string::npos ? fmt::format(" ({})", lit->value)
                                                                           : " (and 8 and 9 are not octal digits)"));
                if (lit->value == 0)
                    throw fail(fmt::format(
                        "{} is 0: no section can be that small; write the most bytes one section may process", id));
            } else if (lit->overflow || lit->octal) {
                skipped.push_back(
                    fmt::format("{} (line {}): not a decimal or hex constant that fits in 64 bits", id, l.line));
                continue;
            }
            if (auto it = defined.find(id); it != defined.end()) {
                const HeaderConstant& first = out[it->second];
                if (first.value != lit->value)
                    throw fail(fmt::format(
                        "{} is defined twice, {} at line {} and {} here; C keeps the later one (with a warning): "
                        "keep the one you mean",
                        id, first.value, first.line, lit->value));
                skipped.push_back(
                    fmt::format("{} (line {}): defined again with the same value as at line {}; judged once", id,
                                l.line, first.line));
                continue;
            }
            defined[id] = out.size();
            out.push_back({id, lit->value, l.line});
        }
    }
    if (!stack.empty()) throw InputError(fmt::format("{}:{}: #if without #endif", source, stack.back().line));
    return out;
}

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "10_DISKS" after `prefix` in `stem`: the count, or 0.
std::uint32_t count_after(const std::string& stem, const std::string& prefix, const std::string& word) {
    if (stem.size() <= prefix.size() + word.size() + 1 || stem.rfind(prefix, 0) != 0 || !ends_with(stem, "_" + word))
        return 0;
    const std::string digits = stem.substr(prefix.size(), stem.size() - prefix.size() - word.size() - 1);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
    return static_cast<std::uint32_t>(std::stoul(digits));
}

// A constant of a multi-source kernel or algorithm: the most disks/sources at 4 KiB stripes (…_MAX_DISKS_4K: the
// value is the count), or the bytes per disk for a count (…_10_DISKS_FPU_BYTES), judged with the cost linear in
// the sources (stripes.hpp) on the slowest variant and machine. Empty: not such a constant.
std::optional<CheckResult> check_stripe_constant(const HeaderConstant& c, const std::vector<ModelFile>& sources,
                                                 const RecommendOptions& o) {
    std::string stem = c.name.rfind("FPUTUNE_", 0) == 0 ? c.name.substr(8) : c.name;
    const bool bytes_constant = ends_with(stem, "_FPU_BYTES");
    if (bytes_constant) stem.resize(stem.size() - std::string("_FPU_BYTES").size());
    std::optional<CheckResult> out;
    for (const ModelFile& m : sources) {
        for (const StripeSeries& s : stripe_series(m, o.question.cache)) {
            const std::string word = macro_stem(s.unit.word);
            for (const std::string& name : {s.kernel, s.algorithm}) {
                std::uint32_t count = 0;
                std::uint64_t bytes = 0;
                if (bytes_constant) {
                    count = count_after(stem, macro_stem(name) + "_", word);
                    bytes = c.value;
                } else if (stem == stripe_count_stem(name, s.unit, 4096)) {
                    count = static_cast<std::uint32_t>(std::min<std::uint64_t>(c.value, 1u << 20));
                    bytes = 4096;
                }
                if (!count) continue;
                CheckResult r;
                r.constant = c;
                r.is_algorithm = name == s.algorithm;
                r.target = fmt::format("{}, {} {} x {} B", name, count, s.unit.word, bytes);
                if (count <= s.unit.extra) {
                    r.note = fmt::format("{} {} hold no data ({} of them are the destinations)", count, s.unit.word,
                                         s.unit.extra);
                    r.time_s = 0;
                } else {
                    bool extrapolated = false;
                    r.time_s = stripe_time_s(s, count - s.unit.extra, static_cast<double>(bytes), o, &extrapolated);
                    if (extrapolated)
                        r.note = fmt::format("{} sources: linear in the sources beyond the {}..{} measured",
                                             count - s.unit.extra, s.by_sources.begin()->first,
                                             s.by_sources.rbegin()->first);
                    if (bytes % m.kernel(s.by_sources.begin()->second.front()->kernel)->block_bytes)
                        r.note += std::string(r.note.empty() ? "" : "; ") + "not whole blocks";
                }
                r.kernel = s.kernel;
                r.machine = m.machine;
                r.cache = s.cache;
                if (!out || r.time_s > out->time_s) out = r;
            }
        }
    }
    return out;
}

// --per-algorithm selected: whether `c` is the variant the kernel runs on its machine (true for all of
// them when that is unknown).
bool is_selected_variant(const ModelChoice& c, const ModelSelection& selection) {
    std::vector<std::string> have;
    for (const ModelChoice* other : selection.of_source(*c.source))
        if (other->kernel->algorithm == c.kernel->algorithm && other->kernel->needs_fpu && !is_peer(*other->kernel))
            have.push_back(other->kernel->name);
    const std::optional<std::string> chosen = selected_variant(c.kernel->algorithm, c.source->cpu, have);
    return !chosen || *chosen == c.kernel->name;
}

// A FPUTUNE_<KERNEL|ALGORITHM>_FPU_BYTES constant: the longest predicted section over the series it names
// (a kernel's own, or every variant that stands for the algorithm). Empty: it names none.
std::optional<CheckResult> check_bytes_constant(const HeaderConstant& c, const std::string& stem,
                                                const ModelSelection& selection, const RecommendOptions& o) {
    CheckResult r;
    r.constant = c;
    bool matched = false;
    for (const ModelChoice& choice : selection.choices) {
        const KernelInfo& k = *choice.kernel;
        // A series' stem (header.hpp): a kernel's, its AAD part's; the warm-up state shares its warm series' one.
        const bool as_kernel = series_stem(k) == stem;
        const bool as_algorithm = !as_kernel && series_algorithm_stem(k) == stem && choice.stands_for_algorithm;
        if (!as_kernel && !as_algorithm) continue;
        if (as_algorithm && o.per_algorithm == PerAlgorithm::selected && !is_selected_variant(choice, selection))
            continue;
        const double t = predict_upper_s(*choice.model, static_cast<double>(c.value), o.question.min_freq_hz,
                                         o.question.quantile);
        if (!matched || t > r.time_s) {
            r.time_s = t;
            r.kernel = k.name;
            r.machine = choice.source->machine;
            r.cache = choice.cache;
        }
        r.target = as_kernel ? k.kernel() + (k.shape == "aad" ? " (aad)" : "") : k.algorithm;
        r.is_algorithm = as_algorithm;
        matched = true;
        if (k.block_bytes > 1 && c.value % k.block_bytes)
            r.note = fmt::format("not whole blocks of {} B ({}: {} B per section)", k.block_bytes, k.name,
                                 c.value / k.block_bytes * k.block_bytes);
    }
    if (!matched) return std::nullopt;
    return r;
}

// One constant judged, or why it was not: a note.
void check_constant(const HeaderConstant& c, const std::vector<ModelFile>& sources, const ModelSelection& selection,
                    const RecommendOptions& o, CheckReport& report) {
    const double budget = effective_budget_s(o.question);
    // Multi-source kernels: FPUTUNE_RAID6_AVX512_MAX_DISKS_4K, FPUTUNE_RAID6_AVX512_10_DISKS_FPU_BYTES.
    std::optional<CheckResult> r = check_stripe_constant(c, sources, o);
    if (!r) {
        if (ends_with(c.name, "_SIMD_MIN_BYTES")) {
            report.notes.push_back(
                fmt::format("ignored {} (line {}): a SIMD threshold, not a section limit", c.name, c.line));
            return;
        }
        if (!ends_with(c.name, "_FPU_BYTES")) {
            report.notes.push_back(fmt::format(
                "ignored {} (line {}): not of the form FPUTUNE_<KERNEL|ALGORITHM>_FPU_BYTES", c.name, c.line));
            return;
        }
        std::string stem = c.name.substr(0, c.name.size() - std::string("_FPU_BYTES").size());
        if (stem.rfind("FPUTUNE_", 0) == 0) stem = stem.substr(8);
        r = check_bytes_constant(c, stem, selection, o);
        if (!r) {
            report.notes.push_back(fmt::format(
                "ignored {} (line {}): no kernel or algorithm '{}' with section points in the inputs", c.name, c.line,
                stem));
            return;
        }
    }
    r->pass = r->time_s <= budget;
    report.results.push_back(*r);
}

}  // namespace

CheckReport check_header(const std::string& text, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& o) {
    validate(o);
    CheckReport report;
    std::vector<std::string> skipped;
    const auto constants = parse_header_constants(text, skipped, source);
    for (const auto& s : skipped) report.notes.push_back("ignored " + s);
    const ModelSelection selection = select_models(sources, o.question);
    for (const auto& c : constants) check_constant(c, sources, selection, o, report);
    if (report.results.empty())
        throw InputError(
            fmt::format("{}: no constant of the form FPUTUNE_<KERNEL>_FPU_BYTES or FPUTUNE_<ALGORITHM>_FPU_BYTES "
                        "names a kernel in the inputs; write one, e.g. #define FPUTUNE_SHA256_FPU_BYTES 4096U",
                        source));
    return report;
}

}  // namespace fputune
