#include "tests/gpu/window_compare.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>

namespace cascade::test {

bool by_rect_then_score(const Detection& a, const Detection& b) {
    return a.rect < b.rect || (a.rect == b.rect && a.score < b.score);
}

bool equal_windows(const std::vector<Detection>& a, const std::vector<Detection>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Detection& x, const Detection& y) {
               return x.rect == y.rect && x.score == y.score;
           });
}

std::string difference(const std::vector<Detection>& gpu, const std::vector<Detection>& cpu) {
    std::vector<Detection> only_gpu, only_cpu;
    std::set_difference(gpu.begin(), gpu.end(), cpu.begin(), cpu.end(), std::back_inserter(only_gpu), by_rect_then_score);
    std::set_difference(cpu.begin(), cpu.end(), gpu.begin(), gpu.end(), std::back_inserter(only_cpu), by_rect_then_score);
    std::ostringstream s;
    s << gpu.size() << " GPU vs " << cpu.size() << " CPU windows; only GPU " << only_gpu.size() << ", only CPU "
      << only_cpu.size();
    for (const auto* list : {&only_gpu, &only_cpu})
        if (!list->empty())
            s << "; e.g. " << (list == &only_gpu ? "GPU " : "CPU ") << (*list)[0].rect.x << "," << (*list)[0].rect.y << " "
              << (*list)[0].rect.width << " score " << (*list)[0].score;
    return s.str();
}

double iou(const Rect& a, const Rect& b) {
    const int w = std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
    const int h = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
    if (w <= 0 || h <= 0) return 0.0;
    const double inter = static_cast<double>(w) * h;
    return inter / (static_cast<double>(a.width) * a.height + static_cast<double>(b.width) * b.height - inter);
}

int matched_by_iou(const std::vector<Rect>& from, const std::vector<Rect>& to) {
    int n = 0;
    for (const Rect& r : from)
        n += std::any_of(to.begin(), to.end(), [&](const Rect& t) { return iou(r, t) >= 0.5; }) ? 1 : 0;
    return n;
}

}  // namespace cascade::test
