#include "cli/json.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cascade::cli {

namespace {

constexpr int kMaxDepth = 256;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit(char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void append_utf8(unsigned long code, std::string& out) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

class Reader {
public:
    explicit Reader(const std::string& text) : s_(text) {}

    Json document() {
        Json value = parse_value(0);
        skip();
        if (pos_ != s_.size()) fail("text after the JSON value");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        const auto line = 1 + std::count(s_.begin(), s_.begin() + static_cast<std::ptrdiff_t>(pos_), '\n');
        throw JsonError("line " + std::to_string(line) + ": " + what);
    }
    void skip() {
        while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
    }
    bool accept(char c) {
        skip();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) fail(pos_ < s_.size() ? std::string("expected '") + c + "'" : "unexpected end");
    }
    bool word(const char* w) {
        const std::size_t n = std::strlen(w);
        if (s_.compare(pos_, n, w) != 0) return false;
        pos_ += n;
        return true;
    }
    unsigned long hex4() {
        if (pos_ + 4 > s_.size()) fail("short \\u escape");
        unsigned long code = 0;
        for (int i = 0; i < 4; ++i) {
            const int digit = hex_digit(s_[pos_++]);
            if (digit < 0) fail("bad \\u escape");
            code = code * 16 + static_cast<unsigned long>(digit);
        }
        return code;
    }
    // After "\u": one code point, a surrogate pair joined.
    unsigned long code_point() {
        const unsigned long first = hex4();
        if (first < 0xD800 || first > 0xDFFF) return first;
        if (first > 0xDBFF || !word("\\u")) fail("unpaired surrogate in \\u escape");
        const unsigned long second = hex4();
        if (second < 0xDC00 || second > 0xDFFF) fail("unpaired surrogate in \\u escape");
        return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
    }
    std::string parse_string() {
        expect('"');
        std::string out;
        for (;;) {
            if (pos_ >= s_.size()) fail("unterminated string");
            const char c = s_[pos_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= s_.size()) fail("unterminated string");
            switch (s_[pos_++]) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': append_utf8(code_point(), out); break;
                default: fail("bad escape in a string");
            }
        }
    }
    void digits() {
        const std::size_t from = pos_;
        while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
        if (pos_ == from) fail("bad number");
    }
    double parse_number() {
        const std::size_t start = pos_;
        if (s_[pos_] == '-') ++pos_;
        digits();
        if (pos_ < s_.size() && s_[pos_] == '.') {
            ++pos_;
            digits();
        }
        if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
            ++pos_;
            if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
            digits();
        }
        return std::strtod(s_.substr(start, pos_ - start).c_str(), nullptr);
    }
    Json parse_value(int depth) {
        if (depth > kMaxDepth) fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
        skip();
        if (pos_ >= s_.size()) fail("unexpected end");
        Json v;
        const char c = s_[pos_];
        if (c == '{') {
            ++pos_;
            v.kind = Json::Kind::object;
            if (accept('}')) return v;
            do {
                skip();
                std::string key = parse_string();
                expect(':');
                v.fields.emplace_back(std::move(key), parse_value(depth + 1));
            } while (accept(','));
            expect('}');
        } else if (c == '[') {
            ++pos_;
            v.kind = Json::Kind::array;
            if (accept(']')) return v;
            do v.items.push_back(parse_value(depth + 1));
            while (accept(','));
            expect(']');
        } else if (c == '"') {
            v.kind = Json::Kind::string;
            v.text = parse_string();
        } else if (word("null")) {
        } else if (word("true") || word("false")) {
            v.kind = Json::Kind::boolean;
            v.boolean = s_[pos_ - 1] == 'e' && s_[pos_ - 2] == 'u';
        } else if (c == '-' || is_digit(c)) {
            v.kind = Json::Kind::number;
            v.number = parse_number();
        } else {
            fail("expected a value");
        }
        return v;
    }

    const std::string& s_;
    std::size_t pos_ = 0;
};

}  // namespace

const Json* Json::find(const std::string& key) const {
    for (const auto& [name, value] : fields)
        if (name == key) return &value;
    return nullptr;
}

const Json& Json::at(const std::string& key) const {
    const Json* value = find(key);
    if (!value) throw JsonError("no member '" + key + "'");
    return *value;
}

Json parse_json(const std::string& text) { return Reader(text).document(); }

std::string json_quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
                    out += escaped;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

}  // namespace cascade::cli
