// A small strict JSON reader (RFC 8259): enough to read cascade-detect's reports back (cascade-eval image
// --detections, the tests). The whole text must be one value; \u escapes become UTF-8; numbers are doubles;
// nesting deeper than 256 levels is refused. And the one writer the tools' reports share: json_quoted. No OpenCV.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cascade::cli {

struct Json {
    enum class Kind { null, boolean, number, string, array, object };
    Kind kind = Kind::null;
    bool boolean = false;
    double number = 0.0;
    std::string text;
    std::vector<Json> items;                           // an array's values
    std::vector<std::pair<std::string, Json>> fields;  // an object's members, in the text's order

    // The first member named `key`, or nullptr (also when this is no object).
    const Json* find(const std::string& key) const;
    // The same; throws JsonError when there is none.
    const Json& at(const std::string& key) const;
    int integer() const { return static_cast<int>(number); }
};

class JsonError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws JsonError "line L: <problem>" when `text` is not exactly one JSON value.
Json parse_json(const std::string& text);

// `text` as a JSON string literal: quoted, with '"', '\\' and control characters escaped (bytes >= 0x80 pass
// through, so UTF-8 stays UTF-8). parse_json(json_quoted(t)).text == t.
std::string json_quoted(const std::string& text);

}  // namespace cascade::cli
