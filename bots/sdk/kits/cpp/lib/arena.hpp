// Moon Arena bot protocol for C++17: a JSON value, its parser and writer, and the loop
// that answers the arena. Standard library only; include it from bot.cpp.
//
// The arena writes one JSON object per line on stdin ("start", "act", "end"); the bot
// answers each "act" with one line {"match": ..., "action": <one of legal_actions>}.
// Nothing else may go to stdout: log with arena::log (stderr).
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace arena {

// A JSON value. Numbers written without a fraction or exponent that fit in 64 bits are
// integers (kind Int); every other number is a double. Objects keep their key order.
class Json {
public:
    enum Kind { Null, Bool, Int, Float, String, Array, Object };

    Json() = default;
    Json(bool value) : kind_(Bool), bool_(value) {}
    Json(int value) : kind_(Int), int_(value) {}
    Json(int64_t value) : kind_(Int), int_(value) {}
    Json(double value) : kind_(Float), float_(value) {}
    Json(const char* value) : kind_(String), string_(value) {}
    Json(std::string value) : kind_(String), string_(std::move(value)) {}

    static Json array() { Json json; json.kind_ = Array; return json; }
    static Json object() { Json json; json.kind_ = Object; return json; }
    static Json parse(const std::string& text);  // throws std::runtime_error

    Kind kind() const { return kind_; }
    bool is_null() const { return kind_ == Null; }
    bool is_bool() const { return kind_ == Bool; }
    bool is_int() const { return kind_ == Int; }
    bool is_number() const { return kind_ == Int || kind_ == Float; }
    bool is_string() const { return kind_ == String; }
    bool is_array() const { return kind_ == Array; }
    bool is_object() const { return kind_ == Object; }

    bool as_bool() const { return bool_; }
    int64_t as_int() const { return kind_ == Float ? static_cast<int64_t>(float_) : int_; }
    double as_double() const { return kind_ == Int ? static_cast<double>(int_) : float_; }
    const std::string& as_string() const { return string_; }
    const std::vector<Json>& items() const { return items_; }
    const std::vector<std::pair<std::string, Json>>& members() const { return members_; }

    // Elements of an array or members of an object; 0 for anything else.
    size_t size() const { return kind_ == Array ? items_.size() : kind_ == Object ? members_.size() : 0; }
    // obj["key"] and arr[i]: a null value when missing, so lookups chain safely.
    const Json& operator[](const std::string& key) const {
        for (const auto& member : members_)
            if (member.first == key) return member.second;
        return null_value();
    }
    const Json& operator[](const char* key) const { return (*this)[std::string(key)]; }
    const Json& operator[](size_t index) const {
        return index < items_.size() ? items_[index] : null_value();
    }
    const Json& operator[](int index) const {
        return index >= 0 ? (*this)[static_cast<size_t>(index)] : null_value();
    }
    bool contains(const std::string& key) const {
        for (const auto& member : members_)
            if (member.first == key) return true;
        return false;
    }
    void push_back(Json value) { kind_ = Array; items_.push_back(std::move(value)); }
    void set(const std::string& key, Json value) {
        kind_ = Object;
        for (auto& member : members_)
            if (member.first == key) { member.second = std::move(value); return; }
        members_.emplace_back(key, std::move(value));
    }

    // Compact JSON; strings are written in ASCII (\uXXXX escapes), as the arena does.
    std::string dump() const { std::string out; write(out); return out; }
    void write(std::string& out) const;

    bool operator==(const Json& other) const;
    bool operator!=(const Json& other) const { return !(*this == other); }

private:
    static const Json& null_value() { static const Json null; return null; }

    Kind kind_ = Null;
    bool bool_ = false;
    int64_t int_ = 0;
    double float_ = 0;
    std::string string_;  // UTF-8
    std::vector<Json> items_;
    std::vector<std::pair<std::string, Json>> members_;

    friend class Parser;
};

class Parser {
public:
    explicit Parser(const std::string& text) : text_(text) {}

    Json document() {
        Json value = parse_value(0);
        skip_space();
        if (pos_ != text_.size()) fail("extra data after the JSON value");
        return value;
    }

private:
    const std::string& text_;
    size_t pos_ = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error(what + " at byte " + std::to_string(pos_));
    }
    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                       text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }
    bool take(const char* word) {
        size_t length = std::char_traits<char>::length(word);
        if (text_.compare(pos_, length, word) != 0) return false;
        pos_ += length;
        return true;
    }

    Json parse_value(int depth) {
        if (depth > 500) fail("JSON nested too deeply");
        skip_space();
        if (pos_ >= text_.size()) fail("unexpected end of JSON");
        char c = text_[pos_];
        if (c == '{') return parse_object(depth);
        if (c == '[') return parse_array(depth);
        if (c == '"') return Json(parse_string());
        if (take("true")) return Json(true);
        if (take("false")) return Json(false);
        if (take("null")) return Json();
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
        fail(std::string("unexpected character '") + c + "'");
    }

    Json parse_object(int depth) {
        Json json = Json::object();
        ++pos_;
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == '}') { ++pos_; return json; }
        while (true) {
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a key");
            std::string key = parse_string();
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != ':') fail("expected ':'");
            ++pos_;
            json.set(key, parse_value(depth + 1));  // a repeated key keeps the last value
            skip_space();
            if (pos_ < text_.size() && text_[pos_] == ',') { ++pos_; continue; }
            if (pos_ < text_.size() && text_[pos_] == '}') { ++pos_; return json; }
            fail("expected ',' or '}'");
        }
    }

    Json parse_array(int depth) {
        Json json = Json::array();
        ++pos_;
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ']') { ++pos_; return json; }
        while (true) {
            json.items_.push_back(parse_value(depth + 1));
            skip_space();
            if (pos_ < text_.size() && text_[pos_] == ',') { ++pos_; continue; }
            if (pos_ < text_.size() && text_[pos_] == ']') { ++pos_; return json; }
            fail("expected ',' or ']'");
        }
    }

    unsigned hex4() {
        if (pos_ + 4 > text_.size()) fail("short \\u escape");
        unsigned value = 0;
        for (int i = 0; i < 4; ++i) {
            char c = text_[pos_++];
            value <<= 4;
            if (c >= '0' && c <= '9') value |= c - '0';
            else if (c >= 'a' && c <= 'f') value |= c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') value |= c - 'A' + 10;
            else fail("bad \\u escape");
        }
        return value;
    }

    static void append_utf8(std::string& out, unsigned code) {
        // Lone surrogates are kept (as 3-byte sequences) so that they write back as sent.
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

    std::string parse_string() {
        std::string out;
        ++pos_;  // the opening quote
        while (true) {
            if (pos_ >= text_.size()) fail("unterminated string");
            char c = text_[pos_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
            if (c != '\\') { out += c; continue; }
            if (pos_ >= text_.size()) fail("unterminated string");
            char escape = text_[pos_++];
            switch (escape) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    unsigned code = hex4();
                    if (code >= 0xD800 && code < 0xDC00 && text_.compare(pos_, 2, "\\u") == 0) {
                        size_t back = pos_;
                        pos_ += 2;
                        unsigned low = hex4();
                        if (low >= 0xDC00 && low < 0xE000)
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        else
                            pos_ = back;  // not a pair: the next escape stands alone
                    }
                    append_utf8(out, code);
                    break;
                }
                default: fail("bad escape");
            }
        }
    }

    Json parse_number() {
        size_t start = pos_;
        if (text_[pos_] == '-') ++pos_;
        if (pos_ >= text_.size() || !isdigit(static_cast<unsigned char>(text_[pos_])))
            fail("bad number");
        if (text_[pos_] == '0') ++pos_;
        else while (pos_ < text_.size() && isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        bool integral = true;
        if (pos_ < text_.size() && text_[pos_] == '.') {
            integral = false;
            ++pos_;
            if (pos_ >= text_.size() || !isdigit(static_cast<unsigned char>(text_[pos_])))
                fail("bad number");
            while (pos_ < text_.size() && isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            integral = false;
            ++pos_;
            if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
            if (pos_ >= text_.size() || !isdigit(static_cast<unsigned char>(text_[pos_])))
                fail("bad number");
            while (pos_ < text_.size() && isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        std::string literal = text_.substr(start, pos_ - start);
        if (integral) {
            errno = 0;
            char* end = nullptr;
            long long value = std::strtoll(literal.c_str(), &end, 10);
            if (errno == 0) return Json(static_cast<int64_t>(value));
            // Too big for 64 bits: a double, as close as it gets.
        }
        return Json(std::strtod(literal.c_str(), nullptr));
    }
};

inline Json Json::parse(const std::string& text) { return Parser(text).document(); }

inline void write_string(std::string& out, const std::string& text) {
    static const char* hex = "0123456789abcdef";
    auto escape = [&](unsigned code) {
        out += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4) out += hex[(code >> shift) & 0xF];
    };
    out += '"';
    for (size_t i = 0; i < text.size();) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '"') { out += "\\\""; ++i; }
        else if (c == '\\') { out += "\\\\"; ++i; }
        else if (c == '\n') { out += "\\n"; ++i; }
        else if (c == '\r') { out += "\\r"; ++i; }
        else if (c == '\t') { out += "\\t"; ++i; }
        else if (c < 0x20 || c == 0x7F) { escape(c); ++i; }
        else if (c < 0x80) { out += static_cast<char>(c); ++i; }
        else {
            // Decode one UTF-8 sequence; write it as \uXXXX (a surrogate pair above FFFF).
            int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
            unsigned code = extra == 3 ? c & 0x07 : extra == 2 ? c & 0x0F : c & 0x1F;
            if (extra == 0 || i + extra >= text.size()) {
                escape(0xFFFD);  // not UTF-8
                ++i;
                continue;
            }
            for (int k = 1; k <= extra; ++k)
                code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
            i += extra + 1;
            if (code >= 0x10000) {
                code -= 0x10000;
                escape(0xD800 + (code >> 10));
                escape(0xDC00 + (code & 0x3FF));
            } else {
                escape(code);
            }
        }
    }
    out += '"';
}

inline void Json::write(std::string& out) const {
    switch (kind_) {
        case Null: out += "null"; break;
        case Bool: out += bool_ ? "true" : "false"; break;
        case Int: out += std::to_string(int_); break;
        case Float: {
            if (!std::isfinite(float_)) {
                out += std::isnan(float_) ? "NaN" : float_ > 0 ? "Infinity" : "-Infinity";
                break;
            }
            // The shortest text that reads back as the same double.
            char buffer[32];
            for (int precision = 1; precision <= 17; ++precision) {
                std::snprintf(buffer, sizeof buffer, "%.*g", precision, float_);
                if (std::strtod(buffer, nullptr) == float_) break;
            }
            std::string text = buffer;
            if (text.find_first_of(".e") == std::string::npos) text += ".0";  // stays a float
            out += text;
            break;
        }
        case String: write_string(out, string_); break;
        case Array:
            out += '[';
            for (size_t i = 0; i < items_.size(); ++i) {
                if (i) out += ',';
                items_[i].write(out);
            }
            out += ']';
            break;
        case Object:
            out += '{';
            for (size_t i = 0; i < members_.size(); ++i) {
                if (i) out += ',';
                write_string(out, members_[i].first);
                out += ':';
                members_[i].second.write(out);
            }
            out += '}';
            break;
    }
}

inline bool Json::operator==(const Json& other) const {
    if (is_number() && other.is_number()) {
        if (kind_ == Int && other.kind_ == Int) return int_ == other.int_;
        return as_double() == other.as_double();
    }
    if (kind_ != other.kind_) return false;
    switch (kind_) {
        case Null: return true;
        case Bool: return bool_ == other.bool_;
        case String: return string_ == other.string_;
        case Array: return items_ == other.items_;
        case Object: {
            if (members_.size() != other.members_.size()) return false;
            for (const auto& member : members_)
                if (!other.contains(member.first) || other[member.first] != member.second)
                    return false;
            return true;
        }
        default: return false;
    }
}

// Everything after the arguments is written to stderr as one line (the arena keeps the
// first 64 KiB of a match's stderr for the bot's author).
template <typename... Parts>
void log(const Parts&... parts) {
    std::ostringstream line;
    (line << ... << parts);
    line << '\n';
    std::cerr << line.str() << std::flush;
}

inline void say(const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

// Write {"match": ..., "error": ...} and end the process with status 1.
[[noreturn]] inline void fail(const Json* match, const std::string& reason) {
    Json message = Json::object();
    if (match && !match->is_null()) message.set("match", *match);
    message.set("error", Json(reason.substr(0, 500)));
    say(message.dump());
    log("error: ", reason);
    std::exit(1);
}

// Answer the arena until its input closes. BotClass has
//     Json act(const Json& observation, const Json& legal_actions)  // an element of legal_actions
// and may have start(const Json& info) and end(const Json& result) (call them from your
// own via the overloads below). One BotClass instance plays one match: several matches
// may interleave in one process, each keyed by its "match" value.
template <typename BotClass>
int run() {
    std::ios::sync_with_stdio(false);
    std::map<std::string, std::unique_ptr<BotClass>> playing;
    auto bot_for = [&](const std::string& key) -> BotClass& {
        auto& slot = playing[key];
        if (!slot) slot.reset(new BotClass());
        return *slot;
    };
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        Json message;
        try {
            message = Json::parse(line);
        } catch (const std::exception&) {
            fail(nullptr, "the referee sent a line that is not JSON");
        }
        if (!message.is_object()) fail(nullptr, "the referee sent a line that is not a JSON object");
        const Json& match = message["match"];
        const std::string key = match.dump();
        const std::string& type = message["type"].as_string();
        try {
            if (type == "act") {
                Json action = bot_for(key).act(message["observation"], message["legal_actions"]);
                Json reply = Json::object();
                if (!match.is_null()) reply.set("match", match);
                reply.set("action", action);
                say(reply.dump());
            } else if (type == "start") {
                playing.erase(key);
                bot_for(key).start(message);
            } else if (type == "end") {
                bot_for(key).end(message["result"]);
                playing.erase(key);
                if (match.is_null()) return 0;
            }
        } catch (const std::exception& error) {
            fail(&match, std::string("bot raised: ") + error.what());
        }
    }
    return 0;
}

// A base class with empty start and end hooks: derive from it and write act.
struct BotBase {
    void start(const Json&) {}
    void end(const Json&) {}
};

}  // namespace arena
