// How positive crops are read, as the trainers' and cascade-eval's command lines give it (one parser for all):
//   - Margin (--pos-margin): the pixels around the object in each crop, per side: "N" for all four sides or
//     "T,R,B,L" (top, right, bottom, left, as CSS gives them), each an integer >= 0.
//   - GroupBy (--group-by): what makes crops one group for hold-out and calibration splits, so that a split
//     never puts near copies on both sides: `name`, the file stem without trailing lower-case letters
//     (INRIA's crop001001a..f are one photo, mirror twins included); `folder`, the folder the file lies in
//     (UMIST's person/face/*.pgm: one person each).
// The parsers throw cli::UsageError naming the option.
#pragma once

#include <string>

namespace cascade::data {

struct Margin {
    int top = 0, right = 0, bottom = 0, left = 0;
    Margin() = default;
    explicit Margin(int all) : top(all), right(all), bottom(all), left(all) {}  // the same on every side
    Margin(int t, int r, int b, int l) : top(t), right(r), bottom(b), left(l) {}
    bool operator==(const Margin& o) const {
        return top == o.top && right == o.right && bottom == o.bottom && left == o.left;
    }
};

Margin parse_margin(const std::string& option, const std::string& text);
std::string margin_text(const Margin& margin);  // "N" when the four sides are equal, else "T,R,B,L"

enum class GroupBy { name, folder };

GroupBy parse_group_by(const std::string& option, const std::string& text);
const char* group_by_name(GroupBy group_by);

}  // namespace cascade::data
