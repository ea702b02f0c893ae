#include "cli/program_options.hpp"

#include "cli/usage_error.hpp"

namespace po = boost::program_options;

namespace cascade::cli {

bool parse_options(po::command_line_parser& parser, po::variables_map& vm) {
    try {
        po::store(parser.run(), vm);
        if (vm.count("help")) return false;
        po::notify(vm);
    } catch (const po::error_with_option_name& e) {
        const std::string name = e.get_option_name();
        throw UsageError(name.empty() ? "command line" : name, e.what());
    } catch (const po::error& e) {
        throw UsageError("command line", e.what());
    }
    return true;
}

}  // namespace cascade::cli
