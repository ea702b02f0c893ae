// The strict JSON reader (cli/json.hpp): a cascade-detect report reads back with its values; escapes
// become UTF-8; text that is not exactly one JSON value is refused with the line of the problem. The writer of
// string literals: what it writes reads back as the same bytes.
#include <doctest/doctest.h>

#include <string>

#include "cli/json.hpp"

using cascade::cli::Json;
using cascade::cli::JsonError;
using cascade::cli::json_quoted;
using cascade::cli::parse_json;

namespace {

std::string error_of(const std::string& text) {
    try {
        parse_json(text);
    } catch (const JsonError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("JSON: a cascade-detect report reads back with its kinds and values") {
    const Json report = parse_json(
        "{\n  \"model\": \"m.xml\",\n  \"parameters\": {\"scale_factor\": 1.1, \"min_size\": null, "
        "\"max_size\": {\"width\": 96, \"height\": 192}, \"stride\": \"auto\"},\n  \"files\": [\"a.png\"],\n"
        "  \"detections\": [{\"file\": \"a.png\", \"frame\": 0, \"x\": -3, \"y\": 2, \"w\": 64, \"h\": 128, "
        "\"score\": -1.5e-3}],\n  \"ok\": true, \"seconds\": 0.25\n}\n");
    CHECK(report.kind == Json::Kind::object);
    CHECK(report.at("model").text == "m.xml");
    const Json& parameters = report.at("parameters");
    CHECK(parameters.at("scale_factor").number == 1.1);
    CHECK(parameters.at("min_size").kind == Json::Kind::null);
    CHECK(parameters.at("max_size").at("height").integer() == 192);
    CHECK(parameters.find("threads") == nullptr);
    CHECK_THROWS_AS(parameters.at("threads"), JsonError);
    REQUIRE(report.at("files").items.size() == 1);
    const Json& d = report.at("detections").items.at(0);
    CHECK(d.at("x").integer() == -3);
    CHECK(d.at("score").number == -1.5e-3);
    CHECK(report.at("ok").kind == Json::Kind::boolean);
    CHECK(report.at("ok").boolean);
    CHECK(parse_json(" [] ").items.empty());
    CHECK(parse_json("false").boolean == false);
}

TEST_CASE("JSON: escapes, \\u included, become the characters they name in UTF-8") {
    CHECK(parse_json(R"("a\"b\\c\/d\n\t")").text == "a\"b\\c/d\n\t");
    CHECK(parse_json(R"("caf\u00e9")").text == "caf\xc3\xa9");
    CHECK(parse_json(R"("\u20ac")").text == "\xe2\x82\xac");
    CHECK(parse_json(R"("\ud83d\ude00")").text == "\xf0\x9f\x98\x80");  // a surrogate pair: U+1F600
    CHECK(parse_json("\"caf\xc3\xa9\"").text == "caf\xc3\xa9");           // UTF-8 passes through
}

TEST_CASE("JSON: json_quoted writes literals that read back as the same bytes") {
    // File names as users have them: quotes, backslashes (Windows paths), control characters, UTF-8.
    const std::string texts[] = {"", "plain.png", "say \"cheese\".jpg", "C:\\data\\frame 01.png",
                                 "tab\there\nnewline\r", std::string("nul\0byte", 8), "\x01\x1f",
                                 "caf\xc3\xa9 \xe2\x82\xac"};
    for (const std::string& t : texts) {
        const std::string quoted = json_quoted(t);
        INFO(quoted);
        CHECK(parse_json(quoted).text == t);
        CHECK(quoted.find('\n') == std::string::npos);  // one line, whatever the name
    }
    CHECK(json_quoted("a\"b") == R"("a\"b")");
    CHECK(json_quoted("\x01") == R"("\u0001")");
}

TEST_CASE("JSON: malformed text is refused with the line of the problem") {
    CHECK(error_of("{\n\"a\": 1,\n\"b\": }") == "line 3: expected a value");
    CHECK(error_of("{\"a\": [1, 2") == "line 1: unexpected end");
    CHECK(error_of("{\"a\": 1} x") == "line 1: text after the JSON value");
    CHECK(error_of("{\"a\" 1}") == "line 1: expected ':'");
    CHECK(error_of("\"open") == "line 1: unterminated string");
    CHECK(error_of("\"tab\there\"") == "line 1: control character in a string");
    CHECK(error_of(R"("\x")") == "line 1: bad escape in a string");
    CHECK(error_of(R"("\u12g4")") == "line 1: bad \\u escape");
    CHECK(error_of(R"("\ud83d")") == "line 1: unpaired surrogate in \\u escape");
    CHECK(error_of("-") == "line 1: bad number");
    CHECK(error_of("1.") == "line 1: bad number");
    CHECK(error_of("nul") == "line 1: expected a value");
    CHECK(error_of("") == "line 1: unexpected end");
    CHECK(error_of(std::string(300, '[') + std::string(300, ']')) == "line 1: nested deeper than 256 levels");
    CHECK(error_of(std::string(200, '[') + std::string(200, ']')).empty());
}
