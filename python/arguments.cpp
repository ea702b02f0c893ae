#include "python/arguments.hpp"

#include <algorithm>
#include <set>

namespace py = pybind11;

namespace cascade::python {

namespace {

bool is_pair_of_ints(const py::handle& value) {
    if (!py::isinstance<py::tuple>(value) && !py::isinstance<py::list>(value)) return false;
    const py::sequence s = py::reinterpret_borrow<py::sequence>(value);
    return s.size() == 2 && py::isinstance<py::int_>(s[0]) && py::isinstance<py::int_>(s[1]) &&
           !py::isinstance<py::bool_>(s[0]) && !py::isinstance<py::bool_>(s[1]);
}

std::string text_of(const std::string& option, const py::handle& value) {
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) return py::str(value);
    if (is_pair_of_ints(value)) {
        const py::sequence s = py::reinterpret_borrow<py::sequence>(value);
        return std::string(py::str(s[0])) + "x" + std::string(py::str(s[1]));
    }
    if (py::hasattr(value, "__fspath__")) return path_of(value);
    throw py::value_error(option + ": cannot be given as " + std::string(py::str(value.get_type().attr("__name__"))));
}

}  // namespace

void append_option(const std::string& option, const py::handle& value, std::vector<std::string>& out) {
    if (value.is_none()) return;
    if (py::isinstance<py::bool_>(value)) {
        if (value.cast<bool>()) out.push_back(option);
        return;
    }
    if ((py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) && !is_pair_of_ints(value)) {
        for (const py::handle item : value) append_option(option, item, out);
        return;
    }
    out.push_back(option);
    out.push_back(text_of(option, value));
}

std::vector<std::string> option_arguments(const py::kwargs& keywords, const OptionNames& names,
                                          const std::string& what) {
    std::vector<std::string> out;
    std::set<std::string> given;
    for (const auto& [key, value] : keywords) {
        const std::string name = py::str(key);
        const auto found = names.find(name);
        if (found == names.end()) {
            std::string accepted;
            for (const auto& [keyword, option] : names) accepted += (accepted.empty() ? "" : ", ") + keyword;
            throw py::value_error(what + ": unknown keyword '" + name + "' (accepted: " + accepted + ")");
        }
        if (!given.insert(found->second).second)
            throw py::value_error(what + ": " + found->second + " given twice ('" + name + "' and another spelling)");
        append_option(found->second, value, out);
    }
    return out;
}

std::string path_of(const py::handle& path) {
    return py::str(py::module_::import("os").attr("fspath")(path));
}

std::vector<std::string> command_line_arguments(const py::kwargs& keywords) {
    std::vector<std::string> out;
    for (const auto& [key, value] : keywords) {
        std::string option = "--" + std::string(py::str(key));
        std::replace(option.begin() + 2, option.end(), '_', '-');
        append_option(option, value, out);
    }
    return out;
}

}  // namespace cascade::python
