#include "train/negative_miner.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "common/pyramid.hpp"
#include "common/resize_exact.hpp"
#include "common/scan.hpp"
#include "data/image_files.hpp"
#include "data/random.hpp"
#include "train/index_permutation.hpp"

namespace cascade::train {

namespace {

// Visits per chunk: a constant, so that which visits a batch makes does not depend on the thread count.
constexpr int kVisitsPerChunk = 16;

// Stream keys for the miner's random draws.
constexpr std::uint64_t kImageOrder = 1, kWindowOrder = 2;

// Windows visited in a row before the next random jump: long enough that a visit reads the integral image
// along rows (three times faster than single windows in random order), short enough to spread it.
constexpr int kSegment = 32;

// An image's universe: every window of every pyramid level (at positions that are multiples of the step),
// cut into segments of kSegment consecutive positions of a row (the last of a row shorter); columns and rows
// count positions in steps. The walk takes segments in random order; position i of the
// walk is window i % kSegment of segment order(i / kSegment), a gap where that segment is shorter.
struct Universe {
    std::vector<PyramidLevel> levels;
    std::vector<long long> first;       // index of each level's first segment; levels.size() + 1 entries
    std::vector<int> columns, per_row;  // window columns and segments per row, per level
    long long windows = 0;

    Universe(Size image, const MiningParams& p) {
        PyramidParams pyramid;
        pyramid.scale_factor = p.scale_factor;
        levels = pyramid_levels(image, p.window, pyramid);
        first.push_back(0);
        for (const PyramidLevel& l : levels) {
            const int cols = (scan_extent(l.size.width, p.window.width) + p.step - 1) / p.step,
                      rows = (scan_extent(l.size.height, p.window.height) + p.step - 1) / p.step;
            columns.push_back(cols);
            per_row.push_back((cols + kSegment - 1) / kSegment);
            first.push_back(first.back() + static_cast<long long>(per_row.back()) * rows);
            windows += static_cast<long long>(cols) * rows;
        }
    }
    long long segments() const { return first.back(); }
    long long walk_length() const { return segments() * kSegment; }

    // Segment `k` of the walk under `order`: its level, row, first column and number of windows.
    struct Segment {
        int level, y, x, length;
    };
    Segment segment(const IndexPermutation& order, long long k) const {
        const long long id = static_cast<long long>(order(static_cast<std::uint64_t>(k)));
        const int level = static_cast<int>(std::upper_bound(first.begin(), first.end(), id) - first.begin()) - 1;
        const std::size_t l = static_cast<std::size_t>(level);
        const long long r = id - first[l];
        const int x = static_cast<int>(r % per_row[l]) * kSegment;
        return {level, static_cast<int>(r / per_row[l]), x, std::min(kSegment, columns[l] - x)};
    }
};

// The window at (x, y) and `margin` pixels around it; beyond the level's border the border pixels repeat
// (BORDER_REPLICATE), as the HoG and covariance features' differences clamp their coordinates there.
GrayImage cut(const GrayImage& level, Size window, int margin, int x, int y) {
    GrayImage out(window.width + 2 * margin, window.height + 2 * margin);
    if (margin == 0) {
        for (int r = 0; r < window.height; ++r)
            std::copy_n(level.pixels.data() + static_cast<std::size_t>(y + r) * level.width + x, window.width, out.row(r));
        return out;
    }
    for (int r = 0; r < out.height; ++r) {
        const int from = std::clamp(y - margin + r, 0, level.height - 1);
        const std::uint8_t* row = level.pixels.data() + static_cast<std::size_t>(from) * level.width;
        for (int c = 0; c < out.width; ++c) out.row(r)[c] = row[std::clamp(x - margin + c, 0, level.width - 1)];
    }
    return out;
}

}  // namespace

struct NegativeMiner::Visit {
    int image = 0;
    long long start = 0, end = 0;       // walk positions scanned: [start, end)
    long long scanned = 0;              // windows among them
    std::vector<long long> found;       // walk position of each accepted window
    std::vector<long long> scanned_to;  // windows scanned up to and including each accepted one
    std::vector<NegativeWindow> windows;
    std::vector<GrayImage> crops;
};

NegativeMiner::NegativeMiner(std::vector<data::NegativeImage> images, MiningParams params)
    : images_(std::move(images)), params_(params) {
    const int n = static_cast<int>(images_.size());
    order_ = data::Random(params_.seed, {kImageOrder}).permutation(n);
    for (const data::NegativeImage& image : images_) {
        const Universe universe(image.size, params_);
        walk_of_.push_back(universe.walk_length());
        windows_of_.push_back(universe.windows);
    }
    cursor_.consumed.assign(static_cast<std::size_t>(n), 0);
}

bool NegativeMiner::used_up(int image) const {
    return cursor_.consumed[static_cast<std::size_t>(image)] >= walk_of_[static_cast<std::size_t>(image)];
}

long long NegativeMiner::universe() const {
    long long total = 0;
    for (long long w : windows_of_) total += w;
    return total;
}

void NegativeMiner::set_cursor(const MiningCursor& cursor) {
    bool ok =
        cursor.consumed.size() == images_.size() && cursor.next >= 0 && cursor.next < static_cast<int>(images_.size());
    for (std::size_t i = 0; ok && i < images_.size(); ++i)
        ok = cursor.consumed[i] >= 0 && cursor.consumed[i] <= walk_of_[i];
    if (!ok)
        throw InputError("mining cursor", "does not fit the " + std::to_string(images_.size()) + " negative images");
    cursor_ = cursor;
}

NegativeMiner::Visit NegativeMiner::visit(int image, long long start, const WindowClassifier& classifier) const {
    const data::NegativeImage& info = images_[static_cast<std::size_t>(image)];
    const Universe universe(info.size, params_);
    const IndexPermutation order(static_cast<std::uint64_t>(universe.segments()),
                                 data::Random(params_.seed, {kWindowOrder, static_cast<std::uint64_t>(image)}).next());
    const GrayImage source = data::read_gray(info.path);
    std::vector<std::optional<GrayImage>> levels(universe.levels.size());
    std::vector<std::unique_ptr<WindowClassifier::Level>> prepared(universe.levels.size());
    Visit v;
    v.image = image;
    v.start = start;
    long long i = start;
    while (i < universe.walk_length() && static_cast<int>(v.found.size()) < params_.per_image) {
        const Universe::Segment seg = universe.segment(order, i / kSegment);
        const std::size_t l = static_cast<std::size_t>(seg.level);
        if (!levels[l]) {
            levels[l] = level_pixels(source.view(), universe.levels[l]);
            prepared[l] = classifier.prepare(*levels[l]);
        }
        const long long segment_end = (i / kSegment + 1) * kSegment;
        for (; i < segment_end && static_cast<int>(v.found.size()) < params_.per_image; ++i) {
            const int offset = static_cast<int>(i % kSegment);
            if (offset >= seg.length) {  // the gap after a row's short last segment
                i = segment_end;
                break;
            }
            ++v.scanned;
            const int x = (seg.x + offset) * params_.step, y = seg.y * params_.step;
            if (!prepared[l]->accepts(x, y)) continue;
            const NegativeWindow w{image, seg.level, x, y};
            v.found.push_back(i);
            v.scanned_to.push_back(v.scanned);
            v.windows.push_back(w);
            v.crops.push_back(cut(*levels[l], params_.window, params_.margin, w.x, w.y));
        }
    }
    v.end = i;
    return v;
}

MiningBatch NegativeMiner::mine(int needed, const WindowClassifier& classifier) {
    MiningBatch batch;
    const int n = static_cast<int>(images_.size());
    while (static_cast<int>(batch.windows.size()) < needed) {
        std::vector<int> positions;  // in order_, of the images this chunk visits
        for (int k = 0; k < n && static_cast<int>(positions.size()) < kVisitsPerChunk; ++k) {
            const int position = (cursor_.next + k) % n;
            if (!used_up(order_[static_cast<std::size_t>(position)])) positions.push_back(position);
        }
        if (positions.empty()) {
            batch.exhausted = true;
            break;
        }
        std::vector<Visit> visits(positions.size());
        parallel_for(
            static_cast<int>(positions.size()),
            [&](int k) {
                const int image = order_[static_cast<std::size_t>(positions[static_cast<std::size_t>(k)])];
                visits[static_cast<std::size_t>(k)] =
                    visit(image, cursor_.consumed[static_cast<std::size_t>(image)], classifier);
            },
            params_.threads);
        cursor_.next = (positions.back() + 1) % n;
        for (std::size_t k = 0; k < visits.size(); ++k) {
            const int left = needed - static_cast<int>(batch.windows.size());
            if (left == 0) {  // roll back the visits this batch does not need: they come first next time
                cursor_.next = positions[k];
                break;
            }
            Visit& v = visits[k];
            const std::size_t take = std::min(v.windows.size(), static_cast<std::size_t>(left));
            const bool all = take == v.windows.size();
            cursor_.consumed[static_cast<std::size_t>(v.image)] = all ? v.end : v.found[take - 1] + 1;
            batch.scanned += all ? v.scanned : v.scanned_to[take - 1];
            ++batch.visits;
            for (std::size_t i = 0; i < take; ++i) {
                batch.windows.push_back(v.windows[i]);
                batch.crops.push_back(std::move(v.crops[i]));
            }
        }
    }
    return batch;
}

bool NegativeMiner::valid(const NegativeWindow& w) const {
    if (w.image < 0 || w.image >= static_cast<int>(images_.size())) return false;
    const Universe universe(images_[static_cast<std::size_t>(w.image)].size, params_);
    if (w.level < 0 || w.level >= static_cast<int>(universe.levels.size())) return false;
    const Size level = universe.levels[static_cast<std::size_t>(w.level)].size;
    return w.x >= 0 && w.y >= 0 && w.x % params_.step == 0 && w.y % params_.step == 0 &&
           w.x + params_.window.width <= level.width && w.y + params_.window.height <= level.height;
}

std::vector<GrayImage> NegativeMiner::crop(const std::vector<NegativeWindow>& windows) const {
    std::map<int, std::vector<std::size_t>> by_image;
    for (std::size_t i = 0; i < windows.size(); ++i) by_image[windows[i].image].push_back(i);
    const std::vector<std::pair<int, std::vector<std::size_t>>> groups(by_image.begin(), by_image.end());
    std::vector<GrayImage> out(windows.size());
    parallel_for(
        static_cast<int>(groups.size()),
        [&](int g) {
            const auto& [image, members] = groups[static_cast<std::size_t>(g)];
            const data::NegativeImage& info = images_[static_cast<std::size_t>(image)];
            const Universe universe(info.size, params_);
            const GrayImage source = data::read_gray(info.path);
            std::map<int, GrayImage> levels;
            for (std::size_t i : members) {
                const NegativeWindow& w = windows[i];
                auto it = levels.find(w.level);
                if (it == levels.end())
                    it = levels.emplace(w.level, level_pixels(source.view(), universe.levels[static_cast<std::size_t>(w.level)]))
                             .first;
                out[i] = cut(it->second, params_.window, params_.margin, w.x, w.y);
            }
        },
        params_.threads);
    return out;
}

}  // namespace cascade::train
