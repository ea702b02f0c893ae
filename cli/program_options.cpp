#include "cli/program_options.hpp"

#include <cmath>
#include <typeinfo>

#include "cli/usage_error.hpp"

namespace po = boost::program_options;

namespace cascade::cli {

namespace {

bool is_unsigned(const std::type_info& t) {
    return t == typeid(unsigned) || t == typeid(unsigned long) || t == typeid(unsigned long long);
}

bool is_finite(const boost::any& v) {
    if (v.type() == typeid(double)) return std::isfinite(boost::any_cast<double>(v));
    if (v.type() == typeid(float)) return std::isfinite(boost::any_cast<float>(v));
    return true;
}

// Boost reads "inf" and "nan" into a double and "-1" into an unsigned (as its largest value): every typed
// option of every tool refuses them here, so that the range checks after parsing see what was meant.
void check_numbers(const po::parsed_options& parsed, const po::variables_map& vm) {
    for (const po::option& o : parsed.options) {
        if (o.value.empty() || !vm.count(o.string_key)) continue;
        const boost::any& v = vm[o.string_key].value();
        const std::string option = "--" + o.string_key, text = o.value.front();
        if (!is_finite(v)) throw UsageError(option, "'" + text + "' is not a finite number");
        if (is_unsigned(v.type()) && text.find('-') != std::string::npos)
            throw UsageError(option, "'" + text + "' is negative");
    }
}

}  // namespace

bool parse_options(po::command_line_parser& parser, po::variables_map& vm) {
    try {
        const po::parsed_options parsed = parser.run();
        po::store(parsed, vm);
        if (vm.count("help")) return false;
        check_numbers(parsed, vm);
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
