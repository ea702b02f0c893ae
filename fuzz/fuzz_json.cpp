// The JSON reader (cli/json.hpp): any text is one value or a JsonError; a string it reads, quoted again by
// json_quoted, reads back the same.
#include <cstdio>
#include <cstdlib>

#include "cli/json.hpp"
#include "fuzz/harness.hpp"

namespace {

void check_strings(const cascade::cli::Json& value) {
    using namespace cascade::cli;
    if (value.kind == Json::Kind::string && parse_json(json_quoted(value.text)).text != value.text) {
        std::fprintf(stderr, "fuzz finding: json_quoted does not read back\n");
        std::abort();
    }
    for (const Json& item : value.items) check_strings(item);
    for (const auto& field : value.fields) check_strings(field.second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        check_strings(cascade::cli::parse_json(cascade::fuzz::text_of(data, size)));
    } catch (const cascade::cli::JsonError&) {
    }
    return 0;
}
