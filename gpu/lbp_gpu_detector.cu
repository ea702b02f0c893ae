#include "gpu/lbp_gpu_detector.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common/error.hpp"
#include "common/resize_exact.hpp"
#include "gpu/cascade_gpu.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/pyramid_gpu.hpp"
#include "gpu/strategy_trials.hpp"
#include "gpu/texture.hpp"

namespace cascade::gpu {

namespace {

constexpr std::size_t kPitchAlign = 256;  // satisfies every device's texturePitchAlignment

std::size_t pitch_for(int width) { return (static_cast<std::size_t>(width) + kPitchAlign - 1) / kPitchAlign * kPitchAlign; }

// Which detector's model constant memory holds (see the header: detectors share it).
std::atomic<std::uint64_t> g_constant_owner{0};
std::atomic<std::uint64_t> g_next_id{1};

}  // namespace

const std::vector<Compaction>& concrete_compactions() {
    static const std::vector<Compaction> all = {Compaction::none, Compaction::global_atomic, Compaction::shared_atomic,
                                                Compaction::hybrid, Compaction::prefix_sum};
    return all;
}

std::string to_string(Compaction c) {
    switch (c) {
        case Compaction::none: return "none";
        case Compaction::global_atomic: return "global_atomic";
        case Compaction::shared_atomic: return "shared_atomic";
        case Compaction::hybrid: return "hybrid";
        case Compaction::prefix_sum: return "prefix_sum";
        case Compaction::automatic: return "auto";
    }
    return "?";
}

std::string to_string(PyramidMode m) { return m == PyramidMode::exact ? "exact" : "texture"; }

Compaction parse_compaction(const std::string& text, const std::string& option) {
    if (text == "auto" || text == "automatic") return Compaction::automatic;
    for (Compaction c : concrete_compactions())
        if (text == to_string(c)) return c;
    throw InputError(option, "unknown compaction strategy '" + text +
                                 "' (none, global_atomic, shared_atomic, hybrid, prefix_sum, auto)");
}

struct LbpGpuDetector::Impl {
    LbpCascade cascade;
    LbpGpuOptions options;
    std::uint64_t id = g_next_id++;
    std::vector<int> ends;       // group ends in stages
    std::vector<int> ends_weak;  // the same in weak learners
    StrategyTrials trials;
    Stream stream;
    DeviceBuffer<float> responses;
    DeviceBuffer<std::uint32_t> stumps;  // stump_tables(cascade); empty: the model runs on its tables

    // Per frame size.
    FrameLayout layout;
    bool have_layout = false;
    DeviceBuffer<std::uint8_t> frame;
    std::size_t frame_pitch = 0;
    DeviceBuffer<GpuLevel> levels;
    DeviceBuffer<TileWeak> tile_weak_table;  // the weak learners for this layout's tile pitch
    DeviceBuffer<ResizeTap> taps_x, taps_y;
    DeviceBuffer<std::uint32_t> integrals;
    DeviceBuffer<std::uint8_t> level_pixels;  // exact mode: for the shared-memory strategy's own tile integrals
    DeviceBuffer<std::uint8_t> canvas;
    std::size_t canvas_pitch = 0;
    TextureObject frame_texture, canvas_texture, integral_texture;
    DeviceBuffer<Survivor> lists[2];
    DeviceBuffer<std::uint8_t> stage0_rejected, visited;
    DeviceBuffer<int> counts;
    PinnedBuffer<std::uint8_t> staging;
    PinnedBuffer<int> host_counts;
    PinnedBuffer<Survivor> host_records;

    Event started, uploaded, pyramid_done, cascade_done, downloaded;
    KernelTimer timer;
    LbpGpuStats stats;

    Impl(const LbpCascade& c, const LbpGpuOptions& o) : cascade(c), options(o), trials(o.compaction, o.auto_frames) {
        if (!(options.pyramid.scale_factor > 1.0)) throw InputError("GPU detector", "scale factor must be > 1");
        for (std::size_t i = 0; i < options.compaction_points.size(); ++i)
            if (options.compaction_points[i] <= 0 || (i > 0 && options.compaction_points[i] <= options.compaction_points[i - 1]))
                throw InputError("GPU detector", "compaction points must be positive and increasing");
        if (options.auto_frames < 2) throw InputError("GPU detector", "auto_frames must be >= 2");
        if (options.shared_carveout > 100) throw InputError("GPU detector", "shared_carveout is a percentage");
        if (options.warp_tail < 0) throw InputError("GPU detector", "warp_tail must be >= 0");
        ends = group_ends(cascade.stages, options.compaction_points);
        if (ends.size() > static_cast<std::size_t>(kMaxGroups))
            throw InputError("GPU detector", "at most " + std::to_string(kMaxGroups - 1) + " compaction points");
        for (int e : ends) ends_weak.push_back(cascade.stages[e - 1].first + cascade.stages[e - 1].count);
        responses.resize(cascade.responses.size());
        // Every copy goes on the detector's stream: it does not synchronise with the legacy default stream.
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(responses.get(), cascade.responses.data(),
                                           cascade.responses.size() * sizeof(float), cudaMemcpyHostToDevice, stream.get()));
        const std::vector<std::uint32_t> stump_words = stump_tables(cascade);
        stumps.resize(stump_words.size());
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(stumps.get(), stump_words.data(), stump_words.size() * sizeof(std::uint32_t),
                                           cudaMemcpyHostToDevice, stream.get()));
        upload_model_constants(cascade, stream.get());  // checks the size now, not at the first frame
        CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        g_constant_owner = id;
    }

    void prepare(Size size) {
        if (have_layout && layout.frame == size) return;
        const LayoutMode mode = options.mode == PyramidMode::exact ? LayoutMode::exact : LayoutMode::texture;
        layout = make_layout(size, cascade.window, options.pyramid, options.rule, mode);
        have_layout = true;
        const cudaStream_t s = stream.get();
        frame_pitch = pitch_for(size.width);
        frame.resize(frame_pitch * size.height);
        staging.resize(static_cast<std::size_t>(size.width) * size.height);
        levels.resize(layout.gpu.size());
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(levels.get(), layout.gpu.data(), layout.gpu.size() * sizeof(GpuLevel),
                                           cudaMemcpyHostToDevice, s));
        const std::vector<TileWeak> weaks =
            tile_weaks(cascade, stumps.size() > 0, tile_pitch(layout.max_step, cascade.window));
        tile_weak_table.resize(weaks.size());
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(tile_weak_table.get(), weaks.data(), weaks.size() * sizeof(TileWeak),
                                           cudaMemcpyHostToDevice, s));
        integrals.resize(static_cast<std::size_t>(layout.integral_elements));
        CASCADE_CUDA_CHECK(cudaMemsetAsync(integrals.get(), 0, layout.integral_elements * sizeof(std::uint32_t), s));
        const std::size_t positions = static_cast<std::size_t>(std::max<long long>(layout.positions, 1));
        for (auto& list : lists) list.resize(positions);
        if (options.rule.stride == 0) {
            stage0_rejected.resize(positions);
            visited.resize(positions);
        }
        counts.resize(kMaxGroups + 1);
        host_counts.resize(kMaxGroups + 1);
        if (mode == LayoutMode::exact) {
            std::vector<ResizeTap> tx, ty;
            for (const PyramidLevel& level : layout.levels) {
                const auto x = linear_exact_taps(size.width, level.size.width);
                const auto y = linear_exact_taps(size.height, level.size.height);
                tx.insert(tx.end(), x.begin(), x.end());
                ty.insert(ty.end(), y.begin(), y.end());
            }
            level_pixels.resize(static_cast<std::size_t>(std::max<long long>(layout.pixel_bytes, 1)));
            // Row padding is never read; zeroed all the same, so that no byte of the buffer is undefined.
            CASCADE_CUDA_CHECK(cudaMemsetAsync(level_pixels.get(), 0, static_cast<std::size_t>(layout.pixel_bytes), s));
            taps_x.resize(tx.size());
            taps_y.resize(ty.size());
            CASCADE_CUDA_CHECK(cudaMemcpyAsync(taps_x.get(), tx.data(), tx.size() * sizeof(ResizeTap), cudaMemcpyHostToDevice, s));
            CASCADE_CUDA_CHECK(cudaMemcpyAsync(taps_y.get(), ty.data(), ty.size() * sizeof(ResizeTap), cudaMemcpyHostToDevice, s));
            CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));  // tx and ty go out of scope
        } else {
            canvas_pitch = pitch_for(layout.canvas.width);
            canvas.resize(canvas_pitch * std::max(layout.canvas.height, 1));
            CASCADE_CUDA_CHECK(cudaMemsetAsync(canvas.get(), 0, canvas_pitch * std::max(layout.canvas.height, 1), s));
            frame_texture = TextureObject::bilinear_u8(frame.get(), size, frame_pitch);
            canvas_texture = TextureObject::bilinear_u8(canvas.get(), layout.canvas, canvas_pitch);
            integral_texture = TextureObject::linear_u32(integrals.get(), static_cast<std::size_t>(layout.integral_elements));
        }
        CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
    }

    void upload(const GrayView& image) {
        const cudaStream_t s = stream.get();
        for (int y = 0; y < image.height; ++y)
            std::memcpy(staging.get() + static_cast<std::size_t>(y) * image.width,
                        image.data + static_cast<std::ptrdiff_t>(y) * image.stride, static_cast<std::size_t>(image.width));
        started.record(s);
        CASCADE_CUDA_CHECK(cudaMemcpy2DAsync(frame.get(), frame_pitch, staging.get(), image.width, image.width,
                                             image.height, cudaMemcpyHostToDevice, s));
        uploaded.record(s);
    }

    // Whether `strategy` integrates its tiles from level pixels (then the pyramid builds no integral images).
    bool tiles_from_pixels(Compaction strategy) const {
        return options.mode == PyramidMode::exact && options.integral_tiles && strategy == Compaction::shared_atomic &&
               shared_tiles_fit(layout.max_step, cascade.window, cascade.policy);
    }

    void build_pyramid(Compaction strategy) {
        const cudaStream_t s = stream.get();
        const IntegralTarget target{levels.get(), static_cast<int>(layout.gpu.size()), layout.rows, layout.strips,
                                    integrals.get()};
        const GrayView device_frame{frame.get(), layout.frame.width, layout.frame.height,
                                    static_cast<int>(frame_pitch)};
        if (tiles_from_pixels(strategy)) {
            build_exact_levels({levels.get(), static_cast<int>(layout.gpu.size()), layout.strips, level_pixels.get()},
                               device_frame, taps_x.get(), taps_y.get(), s, timer);
        } else if (options.mode == PyramidMode::exact) {
            build_exact_pyramid(target, device_frame, taps_x.get(), taps_y.get(), s, timer);
        } else {
            build_texture_pyramid(target, frame_texture.get(), layout.frame, {canvas.get(), canvas_pitch, canvas_texture.get()},
                                  layout.gpu, layout.octave_begin, s, timer);
        }
        pyramid_done.record(s);
    }

    CascadeResult evaluate(Compaction strategy) {
        const cudaStream_t s = stream.get();
        CASCADE_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, (kMaxGroups + 1) * sizeof(int), s));
        static int survivor_blocks = [] {
            int device = 0, sms = 0;
            CASCADE_CUDA_CHECK(cudaGetDevice(&device));
            CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
            return sms * 8;
        }();
        CascadeTarget target{};
        target.window = cascade.window;
        target.policy = cascade.policy;
        target.num_stages = static_cast<int>(cascade.stages.size());
        target.responses = responses.get();
        target.levels = levels.get();
        target.num_levels = static_cast<int>(layout.gpu.size());
        target.tiles = layout.tiles;
        target.shared_tiles = layout.shared_tiles;
        target.grid_rows = layout.grid_rows;
        target.max_step = layout.max_step;
        target.integral_tiles = options.integral_tiles;
        target.tile_weaks = tile_weak_table.get();
        target.stumps = stumps.size() > 0 ? stumps.get() : nullptr;
        target.shared_carveout = options.shared_carveout;
        target.warp_tail = options.warp_tail;
        target.integrals = integrals.get();
        target.level_pixels = tiles_from_pixels(strategy) ? level_pixels.get() : nullptr;
        target.integral_texture = options.mode == PyramidMode::texture ? integral_texture.get() : 0;
        target.stage0_rejected = options.rule.stride == 0 ? stage0_rejected.get() : nullptr;
        target.visited = options.rule.stride == 0 ? visited.get() : nullptr;
        target.lists[0] = lists[0].get();
        target.lists[1] = lists[1].get();
        target.counts = counts.get();
        target.survivor_blocks = survivor_blocks;
        const CascadeResult result = run_cascade(target, ends, strategy, s, timer);
        cascade_done.record(s);
        return result;
    }

    std::vector<Detection> download(const CascadeResult& result) {
        const cudaStream_t s = stream.get();
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_counts.get(), counts.get(), (kMaxGroups + 1) * sizeof(int),
                                           cudaMemcpyDeviceToHost, s));
        CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
        const int n = host_counts.get()[result.counter];
        host_records.resize(static_cast<std::size_t>(std::max(n, 1)));
        if (n > 0)
            CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_records.get(), lists[result.list].get(), n * sizeof(Survivor),
                                               cudaMemcpyDeviceToHost, s));
        downloaded.record(s);
        CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
        std::vector<Detection> out;
        out.reserve(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            const Survivor& r = host_records.get()[i];
            out.push_back({to_image(layout.levels[static_cast<std::size_t>(r.level)], r.x, r.y), static_cast<float>(r.sum)});
        }
        std::sort(out.begin(), out.end(), [](const Detection& a, const Detection& b) {
            return a.rect < b.rect || (a.rect == b.rect && a.score < b.score);
        });
        return out;
    }

    void record_stats(Compaction strategy, const std::vector<Detection>& found) {
        stats.strategy = strategy;
        stats.group_end_stage = ends;
        stats.group_end_weak = ends_weak;
        stats.windows = layout.positions;
        stats.survivors.assign(ends.size(), -1);
        if (strategy == Compaction::none)
            stats.survivors.back() = host_counts.get()[0];
        else
            for (std::size_t g = 0; g < ends.size(); ++g) stats.survivors[g] = host_counts.get()[g];
        stats.detections = static_cast<long long>(found.size());
        stats.upload_ms = uploaded.since(started);
        stats.pyramid_ms = pyramid_done.since(uploaded);
        stats.cascade_ms = cascade_done.since(pyramid_done);
        stats.download_ms = downloaded.since(cascade_done);
        stats.gpu_ms = cascade_done.since(uploaded);
        stats.kernels = timer.collect();
        trials.record(stats.gpu_ms);
    }

    std::vector<Detection> detect(const GrayView& image) {
        if (image.width <= 0 || image.height <= 0 || image.data == nullptr)
            throw InputError("GPU detector", "empty frame");
        prepare(image.size());
        timer.reset(options.time_kernels);
        if (layout.levels.empty()) {  // the window does not fit: nothing to scan
            stats = LbpGpuStats{};
            stats.strategy = trials.chosen();
            return {};
        }
        if (g_constant_owner.exchange(id) != id) upload_model_constants(cascade, stream.get());
        const Compaction strategy = trials.next();
        upload(image);
        build_pyramid(strategy);
        const CascadeResult result = evaluate(strategy);
        std::vector<Detection> found = download(result);
        record_stats(strategy, found);
        return found;
    }
};

LbpGpuDetector::LbpGpuDetector(const LbpCascade& cascade, const LbpGpuOptions& options)
    : impl_(std::make_unique<Impl>(cascade, options)) {}
LbpGpuDetector::~LbpGpuDetector() = default;
LbpGpuDetector::LbpGpuDetector(LbpGpuDetector&&) noexcept = default;
LbpGpuDetector& LbpGpuDetector::operator=(LbpGpuDetector&&) noexcept = default;

std::vector<Detection> LbpGpuDetector::detect(const GrayView& frame) { return impl_->detect(frame); }
const LbpGpuStats& LbpGpuDetector::last_stats() const { return impl_->stats; }
const LbpGpuOptions& LbpGpuDetector::options() const { return impl_->options; }
Compaction LbpGpuDetector::chosen_compaction() const { return impl_->trials.chosen(); }

}  // namespace cascade::gpu
