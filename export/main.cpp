// cascade-export: compiles a model (the project's XML, OpenCV's LBP cascade XML, or a packed binary) into the
// kernel-ready tables of common/packed_model.hpp, what the GPU detectors run, as a binary file and/or a C++
// header to compile in.
#include <boost/program_options.hpp>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli/output_paths.hpp"
#include "cli/program_options.hpp"
#include "cli/tool_main.hpp"
#include "cli/usage_error.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/packed_model.hpp"

namespace po = boost::program_options;
using cascade::cli::UsageError;

namespace {

constexpr const char* kUsage = R"(Usage: cascade-export MODEL [--binary FILE] [--header FILE] [--symbol NAME]

Compiles a cascade model into the tables the GPU detectors run, packed: a header (format version, kind, sum
policy, window, counts), the stages, the weak-learner records and the response tables as the detectors read
them, an LBP model's stump tables (two-valued response tables as code subsets and two leaves), then a
checksum over the whole file; docs/model-format.md describes it. MODEL is the project's XML, OpenCV's LBP
cascade XML or an already packed binary (whose tables are kept as they are). cascade-detect loads all three
with --model; a header written with --header compiles the model into a program.

Examples:
  cascade-export /usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml --binary frontalface.cpk
  cascade-export models/pedestrian.xml --header pedestrian_model.hpp --symbol pedestrian_model
  cascade-export frontalface.cpk --info

Options)";

bool is_keyword(const std::string& word) {
    static const std::set<std::string> kKeywords = {
        "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
        "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
        "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
        "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
        "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
        "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
        "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
        "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
        "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};
    return kKeywords.count(word) > 0;
}

// A C++ identifier from a file name: "lbpcascade_frontalface.xml" -> "lbpcascade_frontalface"; "int.xml" ->
// "model_int" (a keyword, like a leading digit, gets a prefix).
std::string symbol_from(const std::string& path) {
    std::string symbol;
    for (char c : std::filesystem::path(path).stem().string())
        symbol += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (symbol.empty() || std::isdigit(static_cast<unsigned char>(symbol[0])) || is_keyword(symbol))
        symbol = "model_" + symbol;
    return symbol;
}

void print_info(const cascade::PackedModel& packed, std::size_t packed_bytes) {
    std::visit(
        [&](const auto& c) {
            using C = std::decay_t<decltype(c)>;
            constexpr bool lbp = std::is_same_v<C, cascade::LbpCascade>;
            constexpr bool haar = std::is_same_v<C, cascade::HaarCascade>;
            constexpr bool cov = std::is_same_v<C, cascade::CovCascade>;
            std::cout << packed.model.source << ": " << (lbp ? "LBP" : haar ? "Haar" : cov ? "covariance" : "HoG")
                      << " cascade, window "
                      << c.window.width << "x" << c.window.height << ", " << c.stages.size() << " stages, "
                      << c.weaks.size() << " weak learners, sum policy "
                      << (c.policy == cascade::SumPolicy::per_stage ? "per_stage" : "running");
            if (lbp) std::cout << (packed.stumps.empty() ? ", response tables" : ", stump tables");
            std::cout << ", packed " << packed_bytes << " bytes (format version " << cascade::kPackedVersion << ")\n";
        },
        packed.model.cascade);
}

}  // namespace

int main(int argc, char** argv) {
    return cascade::cli::run_tool("cascade-export", [&] {
        std::string model_path, binary_path, header_path, symbol;
        po::options_description options(kUsage);
        options.add_options()("help,h", "show this help")(
            "binary", po::value(&binary_path), "write the packed binary here")(
            "header", po::value(&header_path), "write a C++ header with the packed bytes here")(
            "symbol", po::value(&symbol), "the array's name in the header (default: from MODEL's file name)")(
            "info", "print what the model holds");
        po::options_description hidden;
        hidden.add_options()("model", po::value(&model_path));
        po::options_description all;
        all.add(options).add(hidden);
        po::positional_options_description positional;
        positional.add("model", 1);
        po::variables_map vm;
        po::command_line_parser parser(argc, argv);
        parser.options(all).positional(positional);
        if (!cascade::cli::parse_options(parser, vm)) {
            std::cout << options << "\n";
            return 0;
        }
        if (model_path.empty()) throw UsageError("MODEL", "no model given (see --help)");
        if (binary_path.empty() && header_path.empty() && !vm.count("info"))
            throw UsageError("nothing to do", "give --binary, --header or --info");
        if (vm.count("symbol") && header_path.empty()) throw UsageError("--symbol", "applies to --header only");
        if (vm.count("symbol") && symbol_from(symbol) != symbol)
            throw UsageError("--symbol", "'" + symbol + "' is not a C++ identifier" +
                                             (is_keyword(symbol) ? " (a keyword)" : ""));
        cascade::cli::check_writable_path("--binary", binary_path);
        cascade::cli::check_writable_path("--header", header_path);
        cascade::cli::check_not_an_input("--binary", binary_path, {model_path});
        cascade::cli::check_not_an_input("--header", header_path, {model_path});
        if (!binary_path.empty() && !header_path.empty() &&
            std::filesystem::weakly_canonical(binary_path) == std::filesystem::weakly_canonical(header_path))
            throw UsageError("--header", "'" + header_path + "' is the --binary file too");
        const cascade::PackedModel model = cascade::load_packed_model(model_path);
        const std::vector<std::uint8_t> packed = cascade::pack_model(model);
        if (vm.count("info")) print_info(model, packed.size());
        if (!binary_path.empty())
            cascade::write_file_atomically(binary_path, std::string(packed.begin(), packed.end()));
        if (!header_path.empty()) {
            if (symbol.empty()) symbol = symbol_from(model_path);
            cascade::write_file_atomically(header_path,
                                           cascade::packed_model_header(packed, symbol, "from " + model_path));
        }
        return 0;
    });
}
