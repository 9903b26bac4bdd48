// SPDX-License-Identifier: MIT
// The header reader: logical lines as the preprocessor makes them, then #define, #undef and the
// conditionals, each undecided conditional's branches kept apart as alternatives.
#include "header_constants.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "c_constant.hpp"
#include "errors.hpp"
#include "macro_names.hpp"
#include "text_lines.hpp"

namespace fputune {

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

bool is_limit_name(std::string_view name) {
    const MacroKind kind = parse_macro_name(name).kind;
    return kind == MacroKind::fpu_bytes || kind == MacroKind::simd_min_bytes;
}

// Where a line is: in which branch of each undecided conditional around it (group, branch).
struct Alternative {
    int group = 0, branch = 0;
};
using Path = std::vector<Alternative>;
// Two places never both in force: different branches of one conditional.
bool exclusive(const Path& a, const Path& b) {
    for (const Alternative& x : a)
        for (const Alternative& y : b)
            if (x.group == y.group && x.branch != y.branch) return true;
    return false;
}

struct Definition {
    std::string name, value;
    int line = 0;
    Path path;
    std::string branch;
    bool function_like = false, removed = false;
};

// One #if group: its current branch and whether it is taken, dead, or one of undecided alternatives.
struct Level {
    enum class State { live, alternative, dead } state = State::live;
    int group = 0, branch = 0, line = 0;
    bool taken = false;  // a branch known to be in force was seen: the later ones are dead
    bool undecided = false;  // an undecided branch was seen: a later "true" one is an alternative too
    std::string label;
};

class Reader {
public:
    Reader(const std::string& source, std::vector<std::string>& skipped) : source_(source), skipped_(skipped) {}

    void line(const LogicalLine& l) {
        const auto [name, rest] = directive(l.text);
        line_ = l.line;
        if (name == "if" || name == "ifdef" || name == "ifndef")
            open(name, rest);
        else if (name == "elif" || name == "else")
            next_branch(name, rest);
        else if (name == "endif") {
            if (stack_.empty()) throw fail("#endif without #if");
            stack_.pop_back();
        } else if (name == "undef")
            undef(rest.substr(0, std::min(rest.size(), rest.find_first_of(" \t("))));
        else if (name == "define")
            define(rest);
    }

    std::vector<HeaderConstant> finish() {
        if (!stack_.empty())
            throw InputError(fmt::format("{}:{}: #if without #endif", source_, stack_.back().line));
        std::vector<HeaderConstant> out;
        std::vector<const Definition*> kept;  // parallel to out
        for (const Definition& d : defs_) {
            if (d.removed || d.function_like) continue;
            std::optional<std::uint64_t> v = value_of(d);
            if (!v) continue;
            if (!first_definition(d, *v, out, kept)) continue;
            out.push_back({d.name, *v, d.line, d.branch});
            kept.push_back(&d);
        }
        return out;
    }

private:
    const std::string& source_;
    std::vector<std::string>& skipped_;
    std::vector<Level> stack_;
    std::vector<Definition> defs_;
    int groups_ = 0, line_ = 0;
    static constexpr std::size_t kMaxExpansions = 100000;
    mutable std::map<std::string, CValue> memo_;  // cleared by #undef
    mutable std::size_t expansions_ = 0;

    InputError fail(const std::string& why, int line = 0) const {
        return InputError(fmt::format("{}:{}: {}", source_, line ? line : line_, why));
    }
    bool live() const {
        return std::none_of(stack_.begin(), stack_.end(), [](const Level& l) { return l.state == Level::State::dead; });
    }
    Path path() const {
        Path p;
        for (const Level& l : stack_)
            if (l.state == Level::State::alternative) p.push_back({l.group, l.branch});
        return p;
    }
    std::string branch_label() const {
        std::string s;
        for (const Level& l : stack_)
            if (l.state == Level::State::alternative) s += (s.empty() ? "" : ", ") + l.label;
        return s;
    }

    // The names a condition or a value sees: the file's definitions in force at `where` (not excluded by
    // it, not #undef'd), each evaluated in turn; `upto` of them (those before the line being read).
    CNames names(const Path& where, std::size_t upto, std::vector<std::string>& evaluating) const {
        CNames n;
        n.defined = [this, where, upto](std::string_view id) -> std::optional<bool> {
            for (std::size_t i = 0; i < upto; ++i)
                if (defs_[i].name == id && !defs_[i].removed && !exclusive(defs_[i].path, where)) return true;
            return std::nullopt;  // decided elsewhere (Kconfig, the compiler, another header)
        };
        n.value = [this, where, upto, &evaluating](std::string_view id) {
            return macro_value(id, where, upto, evaluating);
        };
        return n;
    }

    CValue macro_value(std::string_view id, const Path& where, std::size_t upto,
                       std::vector<std::string>& evaluating) const {
        CValue out;
        bool found = false;
        int found_line = 0;
        for (std::size_t i = 0; i < upto; ++i) {
            const Definition& d = defs_[i];
            if (d.name != id || d.removed || exclusive(d.path, where)) continue;
            if (d.function_like) return {false, 0, false, false, fmt::format("{} is a function-like macro", id)};
            if (std::find(evaluating.begin(), evaluating.end(), d.name) != evaluating.end() ||
                evaluating.size() >= static_cast<std::size_t>(kMaxCExprDepth))
                return {false, 0, false, false, fmt::format("{} refers to itself", id)};
            Path both = where;
            both.insert(both.end(), d.path.begin(), d.path.end());
            const CValue v = evaluated(i, both, upto, evaluating);
            if (!v.known) return {false, 0, false, false, fmt::format("{} (line {}): {}", id, d.line, v.why)};
            if (found && (v.value != out.value || v.overflow != out.overflow))
                return {false, 0, false, false,
                        fmt::format("{} has different values at lines {} and {}", id, found_line, d.line)};
            out = v;
            found = true;
            found_line = d.line;
        }
        return out;  // not found: known = false and no reason, so SZ_* may answer
    }

    // Definition i's value where `where` holds, once per place (a chain of macros each naming the next
    // twice would otherwise take 2^depth evaluations); at most kMaxExpansions in all.
    CValue evaluated(std::size_t i, Path where, std::size_t upto, std::vector<std::string>& evaluating) const {
        std::sort(where.begin(), where.end(), [](const Alternative& a, const Alternative& b) {
            return a.group != b.group ? a.group < b.group : a.branch < b.branch;
        });
        std::string key = fmt::format("{}/{}", i, upto);
        for (const Alternative& a : where) key += fmt::format(",{}.{}", a.group, a.branch);
        if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
        if (++expansions_ > kMaxExpansions)
            return {false, 0, false, false, "too many macro expansions"};
        evaluating.push_back(defs_[i].name);
        const CValue v = evaluate_c_constant(defs_[i].value, names(where, upto, evaluating));
        evaluating.pop_back();
        memo_.emplace(key, v);
        return v;
    }

    // #if EXPR, #ifdef X, #ifndef X: known true, known false, or undecided.
    std::optional<bool> condition(std::string_view kind, std::string_view rest) const {
        std::vector<std::string> evaluating;
        const CNames n = names(path(), defs_.size(), evaluating);
        if (kind == "ifdef" || kind == "ifndef") {
            const std::string_view id = rest.substr(0, std::min(rest.size(), rest.find_first_of(" \t")));
            const std::optional<bool> d = n.defined(id);
            if (!d) return std::nullopt;
            return kind == "ifdef" ? *d : !*d;
        }
        const CValue v = evaluate_c_constant(rest, n);
        if (!v.known) return std::nullopt;
        return v.value != 0;
    }

    void enter(Level& l, std::optional<bool> known, std::string_view kind, std::string_view rest) {
        l.label = fmt::format("#{}{}{} (line {})", kind, rest.empty() ? "" : " ", printable(rest), line_);
        if (l.taken || (known && !*known)) {
            l.state = Level::State::dead;
        } else if (known && !l.undecided) {
            l.state = Level::State::live;
            l.taken = true;
        } else {
            l.state = Level::State::alternative;
            l.taken = known.has_value();  // a true #elif after undecided ones: the branches after it are dead
            l.undecided = true;
        }
    }

    void open(std::string_view kind, std::string_view rest) {
        if (stack_.size() >= 64) throw fail("#if nested more than 64 deep");
        const std::optional<bool> known = condition(kind, rest);
        Level l;
        l.group = ++groups_;
        l.line = line_;
        enter(l, known, kind, rest);
        stack_.push_back(l);
    }

    void next_branch(std::string_view kind, std::string_view rest) {
        if (stack_.empty()) throw fail("#" + std::string(kind) + " without #if");
        Level& l = stack_.back();
        ++l.branch;
        // Its condition is read where the group stands, outside its own branches.
        const Level saved = l;
        stack_.pop_back();
        const std::optional<bool> known = kind == "else" ? std::optional<bool>(true) : condition("if", rest);
        stack_.push_back(saved);
        enter(stack_.back(), known, kind, rest);
    }

    void undef(std::string_view id) {
        if (!live()) return;
        memo_.clear();
        const Path here = path();
        for (Definition& d : defs_)
            if (d.name == id && !exclusive(d.path, here)) d.removed = true;
    }

    void define(std::string_view rest) {
        if (rest.empty() || !is_ident_start(rest[0])) throw fail("#define without a macro name");
        std::size_t n = 0;
        while (n < rest.size() && is_ident(rest[n])) ++n;
        Definition d{std::string(rest.substr(0, n)), std::string(trim(rest.substr(n))), line_, path(), branch_label()};
        d.function_like = n < rest.size() && rest[n] == '(';
        if (!live()) {
            if (is_limit_name(d.name))
                skipped_.push_back(fmt::format("{} (line {}): inside #if 0 (or a branch not taken)", d.name, line_));
            return;
        }
        if (d.value.empty() && !d.function_like) return;  // an include guard or a flag: defined, no value
        defs_.push_back(std::move(d));
    }

    // The definition's value, or nullopt after noting why it is not a constant; throws for a named constant.
    std::optional<std::uint64_t> value_of(const Definition& d) const {
        std::vector<std::string> evaluating{d.name};
        const CValue v = evaluate_c_constant(d.value, names(d.path, defs_.size(), evaluating));
        const bool limit = is_limit_name(d.name);
        if (!v.known) {
            if (is_named_constant(d.name))
                throw fail(fmt::format("{} {}: cannot evaluate it ({}); write an integer constant expression of "
                                       "literals, SZ_* and macros defined in this header",
                                       d.name, printable(d.value), v.why),
                           d.line);
            skipped_.push_back(fmt::format("{} (line {}): value is not an integer constant", d.name, d.line));
            return std::nullopt;
        }
        if (!limit) {
            if (!v.overflow && !v.octal && v.value >= 0) return static_cast<std::uint64_t>(v.value);
            skipped_.push_back(
                fmt::format("{} (line {}): not a decimal or hex constant that fits in 64 bits", d.name, d.line));
            return std::nullopt;
        }
        if (v.overflow)
            throw fail(fmt::format("{} {}: does not fit in 64 bits; a section limit is a count of bytes", d.name,
                                   printable(d.value)),
                       d.line);
        if (v.octal)
            throw fail(fmt::format("{} {}: C reads a leading 0 as octal ({}); write the number without it", d.name,
                                   printable(d.value), v.value),
                       d.line);
        if (v.value <= 0)
            throw fail(fmt::format("{} is {}: no section can be that small; write the most bytes one section may "
                                   "process",
                                   d.name, v.value),
                       d.line);
        return static_cast<std::uint64_t>(v.value);
    }

    // False when an earlier definition in force beside this one has the same value (noted); throws when
    // its value differs.
    bool first_definition(const Definition& d, std::uint64_t value, const std::vector<HeaderConstant>& out,
                          const std::vector<const Definition*>& kept) const {
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (out[i].name != d.name || exclusive(kept[i]->path, d.path)) continue;
            if (out[i].value != value)
                throw fail(fmt::format("{} is defined twice, {} at line {} and {} here; C keeps the later one (with a "
                                       "warning): keep the one you mean",
                                       d.name, out[i].value, out[i].line, value),
                           d.line);
            skipped_.push_back(fmt::format("{} (line {}): defined again with the same value as at line {}; judged once",
                                           d.name, d.line, out[i].line));
            return false;
        }
        return true;
    }
};

}  // namespace

bool is_named_constant(std::string_view name) { return name.starts_with(kMacroPrefix) || is_limit_name(name); }

std::vector<HeaderConstant> parse_header_constants(const std::string& text, std::vector<std::string>& skipped,
                                                   const std::string& source) {
    Reader reader(source, skipped);
    for (const LogicalLine& l : c_logical_lines(text, source)) reader.line(l);
    return reader.finish();
}

}  // namespace fputune
