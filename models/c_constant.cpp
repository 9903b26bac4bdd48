// SPDX-License-Identifier: MIT
// A recursive-descent evaluator of C integer constant expressions, in C's precedence order.
#include "c_constant.hpp"

#include <cctype>
#include <charconv>
#include <vector>

#include <fmt/format.h>

namespace fputune {

std::optional<std::uint64_t> linux_size_macro(std::string_view name) {
    if (!name.starts_with("SZ_")) return std::nullopt;
    name.remove_prefix(3);
    int shift = 0;
    if (!name.empty()) {
        switch (name.back()) {
            case 'K': shift = 10; break;
            case 'M': shift = 20; break;
            case 'G': shift = 30; break;
            case 'T': shift = 40; break;
            default: break;
        }
        if (shift) name.remove_suffix(1);
    }
    std::uint64_t n = 0;
    const auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
    if (name.empty() || name[0] == '0' || ec != std::errc() || ptr != name.data() + name.size()) return std::nullopt;
    if (n >= 1024 || (n & (n - 1))) return std::nullopt;
    return n << shift;
}

namespace {

using Wide = __int128;
constexpr Wide kMax = static_cast<Wide>(UINT64_MAX);

struct Parser {
    Parser(std::string_view text, const CNames& n) : s(text), names(n) {}
    std::string_view s;
    const CNames& names;
    std::size_t i = 0;
    int depth = 0;
    CValue failed;  // the first failure (known = false)
    bool overflow = false, octal = false;

    bool ok() const { return failed.why.empty(); }
    Wide fail(const std::string& why) {
        if (ok()) failed.why = why;
        return 0;
    }
    void space() {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    }
    bool eat(std::string_view op) {
        space();
        if (s.substr(i).starts_with(op)) {
            // "<" must not take the first character of "<<" or "<=" (and so on): callers ask the longer first.
            i += op.size();
            return true;
        }
        return false;
    }
    bool peek(std::string_view op) {
        space();
        return s.substr(i).starts_with(op);
    }
    Wide checked(Wide v) {
        if (v > kMax || v < -kMax) overflow = true;
        return v;
    }

    std::string_view identifier() {
        space();
        const std::size_t b = i;
        while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
        return s.substr(b, i - b);
    }

    Wide number() {
        const std::size_t b = i;
        while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])))) ++i;
        std::string_view t = s.substr(b, i - b);
        std::size_t end = t.size();
        while (end > 0 && std::string_view("uUlL").find(t[end - 1]) != std::string_view::npos) --end;
        std::string suffix;
        for (char c : t.substr(end)) suffix += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (!(suffix.empty() || suffix == "u" || suffix == "l" || suffix == "ul" || suffix == "lu" || suffix == "ll" ||
              suffix == "ull" || suffix == "llu"))
            return fail(fmt::format("'{}' is not an integer literal", t));
        std::string_view digits = t.substr(0, end);
        int base = 10;
        if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
            base = 16;
            digits.remove_prefix(2);
        } else if (digits.size() > 1 && digits[0] == '0') {
            octal = true;
            base = 8;
            if (digits.find_first_of("89") != std::string_view::npos)
                return fail(fmt::format("'{}': 8 and 9 are not octal digits (C reads a leading 0 as octal)", t));
        }
        std::uint64_t v = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
        if (ec == std::errc::result_out_of_range) {
            overflow = true;
            return kMax + 1;
        }
        if (ec != std::errc() || ptr != digits.data() + digits.size())
            return fail(fmt::format("'{}' is not an integer literal", t));
        return v;
    }

    Wide name_value(std::string_view id) {
        if (id == "defined") {
            const bool paren = eat("(");
            const std::string_view x = identifier();
            if (x.empty() || (paren && !eat(")"))) return fail("defined needs a macro name");
            const std::optional<bool> d = names.defined(x);
            if (!d) return fail(fmt::format("whether {} is defined is decided elsewhere", x));
            return *d;
        }
        if (peek("(")) return fail(fmt::format("{}(...) is a function-like macro or a call", id));
        const CValue v = names.value(id);
        if (v.known) {
            overflow |= v.overflow;
            octal |= v.octal;
            return v.value;
        }
        if (!v.why.empty()) return fail(v.why);
        if (const auto sz = linux_size_macro(id)) return static_cast<Wide>(*sz);
        return fail(fmt::format("{} is not defined in this file", id));
    }

    Wide primary() {
        space();
        if (i >= s.size()) return fail("an operand is missing");
        if (++depth > kMaxCExprDepth) return fail("nested too deep");
        Wide v = 0;
        if (eat("(")) {
            v = conditional();
            if (ok() && !eat(")")) fail("a ( without its )");
        } else if (std::isdigit(static_cast<unsigned char>(s[i]))) {
            v = number();
        } else if (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') {
            v = name_value(identifier());
        } else {
            fail(fmt::format("'{}' cannot start an operand", s.substr(i, 1)));
        }
        --depth;
        return v;
    }

    Wide unary() {
        if (++depth > kMaxCExprDepth) return fail("nested too deep");
        Wide v = 0;
        if (eat("-"))
            v = -unary();
        else if (eat("+"))
            v = unary();
        else if (eat("~"))
            v = checked(~static_cast<std::uint64_t>(unary()));
        else if (eat("!"))
            v = unary() == 0;
        else
            v = primary();
        --depth;
        return v;
    }

    Wide binary(int level) {
        if (level == 10) return unary();
        Wide v = binary(level + 1);
        while (ok()) {
            space();
            const std::string_view r = s.substr(i);
            std::string_view op;
            for (std::string_view o : ops(level))
                if (r.starts_with(o) && !longer(r, o)) {
                    op = o;
                    break;
                }
            if (op.empty()) return v;
            i += op.size();
            const Wide w = binary(level + 1);
            if (!ok()) return 0;
            v = apply(op, v, w);
        }
        return v;
    }

    // "<" in "<<" or "<=", "&" in "&&", "|" in "||", "=" in "==" ...: the longer operator is meant.
    static bool longer(std::string_view r, std::string_view op) {
        if (r.size() <= op.size()) return false;
        const char next = r[op.size()];
        if (op == "<" || op == ">") return next == op[0] || next == '=';
        if (op == "&" || op == "|") return next == op[0];
        if (op == "!") return next == '=';
        return false;
    }

    static const std::vector<std::string_view>& ops(int level) {
        static const std::vector<std::vector<std::string_view>> table = {
            {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"},
            {"*", "/", "%"}};
        return table[static_cast<std::size_t>(level)];
    }

    Wide apply(std::string_view op, Wide a, Wide b) {
        if (op == "||") return a || b;
        if (op == "&&") return a && b;
        if (op == "|") return a | b;
        if (op == "^") return a ^ b;
        if (op == "&") return a & b;
        if (op == "==") return a == b;
        if (op == "!=") return a != b;
        if (op == "<=") return a <= b;
        if (op == ">=") return a >= b;
        if (op == "<") return a < b;
        if (op == ">") return a > b;
        if (op == "<<" || op == ">>") {
            if (b < 0 || b >= 64) return fail(fmt::format("a shift by {} bits", static_cast<long long>(b)));
            return checked(op == "<<" ? a << static_cast<int>(b) : a >> static_cast<int>(b));
        }
        if (op == "+") return checked(a + b);
        if (op == "-") return checked(a - b);
        if (op == "*") {
            if (a != 0 && (b > kMax || b < -kMax || a > kMax || a < -kMax)) overflow = true;
            return overflow ? 0 : checked(a * b);
        }
        if (b == 0) return fail("a division by 0");
        return op == "/" ? a / b : a % b;
    }

    Wide conditional() {
        const Wide c = binary(0);
        if (!ok() || !eat("?")) return c;
        const Wide a = conditional();
        if (!ok() || !eat(":")) return fail("a ? without its :");
        const Wide b = conditional();
        return c ? a : b;
    }
};

}  // namespace

CValue evaluate_c_constant(std::string_view expr, const CNames& names) {
    Parser p{expr, names};
    const Wide v = p.conditional();
    p.space();
    if (p.ok() && p.i < expr.size()) p.fail(fmt::format("'{}' after the expression", expr.substr(p.i)));
    if (!p.ok()) return p.failed;
    CValue out;
    out.known = true;
    out.overflow = p.overflow || v > INT64_MAX || v < INT64_MIN;
    out.octal = p.octal;
    out.value = out.overflow ? 0 : static_cast<std::int64_t>(v);
    return out;
}

}  // namespace fputune
