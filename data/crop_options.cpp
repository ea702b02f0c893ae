#include "data/crop_options.hpp"

#include <sstream>
#include <vector>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"

namespace cascade::data {

Margin parse_margin(const std::string& option, const std::string& text) {
    std::vector<int> sides;
    std::istringstream parts(text);
    for (std::string part; std::getline(parts, part, ',');) sides.push_back(cli::parse_int(option, part));
    if (!text.empty() && text.back() == ',') sides.push_back(cli::parse_int(option, ""));
    if (sides.size() != 1 && sides.size() != 4)
        throw cli::UsageError(option, "'" + text + "' is not a margin (N, or T,R,B,L: top, right, bottom, left)");
    for (const int side : sides)
        if (side < 0) throw cli::UsageError(option, "'" + text + "': a margin is at least 0 pixels");
    if (sides.size() == 1) return {sides[0], sides[0], sides[0], sides[0]};
    return {sides[0], sides[1], sides[2], sides[3]};
}

std::string margin_text(const Margin& m) {
    if (m.top == m.right && m.top == m.bottom && m.top == m.left) return std::to_string(m.top);
    return std::to_string(m.top) + "," + std::to_string(m.right) + "," + std::to_string(m.bottom) + "," +
           std::to_string(m.left);
}

GroupBy parse_group_by(const std::string& option, const std::string& text) {
    if (text == "name") return GroupBy::name;
    if (text == "folder") return GroupBy::folder;
    throw cli::UsageError(option, "unknown grouping '" + text + "' (choose name or folder)");
}

const char* group_by_name(GroupBy group_by) { return group_by == GroupBy::folder ? "folder" : "name"; }

}  // namespace cascade::data
