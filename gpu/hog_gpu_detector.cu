#include "gpu/hog_gpu_detector.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "common/error.hpp"
#include "common/resize_exact.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/hog_cascade_gpu.hpp"
#include "gpu/hog_features_gpu.hpp"
#include "gpu/hog_layout.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/strategy_trials.hpp"
#include "gpu/texture.hpp"

namespace cascade::gpu {

namespace {

constexpr std::size_t kPitchAlign = 256;  // satisfies every device's texturePitchAlignment

// Which HoG detector's model constant memory holds (see the header: HoG detectors share it).
std::atomic<std::uint64_t> g_constant_owner{0};
std::atomic<std::uint64_t> g_next_id{1};

template <class T>
void upload(DeviceBuffer<T>& buffer, const std::vector<T>& data, cudaStream_t s) {
    buffer.resize(data.size());
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(buffer.get(), data.data(), data.size() * sizeof(T), cudaMemcpyHostToDevice, s));
}

}  // namespace

struct HogGpuDetector::Impl {
    HogCascade cascade;
    HogGpuOptions options;
    std::uint64_t id = g_next_id++;
    std::vector<int> ends;       // group ends in stages
    std::vector<int> ends_weak;  // the same in weak learners
    StrategyTrials trials;
    Stream stream;

    // Per frame size.
    HogFrameLayout layout;
    bool have_layout = false;
    DeviceBuffer<std::uint8_t> frame;
    std::size_t frame_pitch = 0;
    TextureObject frame_texture;
    DeviceBuffer<GpuLevel> levels, word_levels;
    DeviceBuffer<ResizeTap> taps_x, taps_y;
    DeviceBuffer<std::uint8_t> pixels;
    DeviceBuffer<std::uint32_t> integrals;
    DeviceBuffer<Survivor> lists[2];
    DeviceBuffer<std::uint8_t> stage0_rejected, visited;
    DeviceBuffer<int> counts;
    PinnedBuffer<std::uint8_t> staging;
    PinnedBuffer<int> host_counts;
    PinnedBuffer<Survivor> host_records;

    Event started, uploaded, pyramid_done, cascade_done, downloaded;
    KernelTimer timer;
    HogGpuStats stats;

    Impl(const HogCascade& c, const HogGpuOptions& o) : cascade(c), options(o), trials(o.compaction, o.auto_frames) {
        if (!(options.pyramid.scale_factor > 1.0)) throw InputError("GPU HoG detector", "scale factor must be > 1");
        if (options.rule.stride < 0) throw InputError("GPU HoG detector", "stride must be >= 0");
        for (std::size_t i = 0; i < options.compaction_points.size(); ++i)
            if (options.compaction_points[i] <= 0 || (i > 0 && options.compaction_points[i] <= options.compaction_points[i - 1]))
                throw InputError("GPU HoG detector", "compaction points must be positive and increasing");
        if (options.auto_frames < 2) throw InputError("GPU HoG detector", "auto_frames must be >= 2");
        if (cascade.stages.empty()) throw InputError("GPU HoG detector", "the model has no stages");
        // A window accepted early would have to leave its group's survivors for the accepted list: not built.
        for (const Stage& st : cascade.stages)
            if (st.accept != std::numeric_limits<float>::infinity())
                throw InputError("GPU HoG detector", "stages with acceptance thresholds are not supported");
        ends = group_ends(cascade.stages, options.compaction_points);
        if (ends.size() > static_cast<std::size_t>(kMaxGroups))
            throw InputError("GPU HoG detector", "at most " + std::to_string(kMaxGroups - 1) + " compaction points");
        for (int e : ends) ends_weak.push_back(cascade.stages[e - 1].first + cascade.stages[e - 1].count);
        upload_hog_constants(cascade, stream.get());  // checks the size now, not at the first frame
        CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        g_constant_owner = id;
    }

    void prepare(Size size) {
        if (have_layout && layout.base.frame == size) return;
        layout = make_hog_layout(size, cascade.window, options.pyramid, options.rule);
        have_layout = true;
        const FrameLayout& base = layout.base;
        const cudaStream_t s = stream.get();
        frame_pitch = (static_cast<std::size_t>(size.width) + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
        frame.resize(frame_pitch * size.height);
        staging.resize(static_cast<std::size_t>(size.width) * size.height);
        upload(levels, base.gpu, s);
        upload(word_levels, layout.words, s);
        const std::size_t stacked = static_cast<std::size_t>(std::max(base.rows, 1)) * layout.pitch;
        pixels.resize(stacked);
        integrals.resize(static_cast<std::size_t>(base.integral_elements));
        // Row 0 and corner 0 of every table stay zero: the kernels write only the corners below and right.
        CASCADE_CUDA_CHECK(cudaMemsetAsync(integrals.get(), 0, base.integral_elements * sizeof(std::uint32_t), s));
        const std::size_t positions = static_cast<std::size_t>(std::max<long long>(base.positions, 1));
        for (auto& list : lists) list.resize(positions);
        if (options.rule.stride == 0) {
            stage0_rejected.resize(positions);
            visited.resize(positions);
        }
        counts.resize(kMaxGroups + 1);
        host_counts.resize(kMaxGroups + 1);
        if (options.mode == PyramidMode::exact) {
            std::vector<ResizeTap> tx, ty;
            for (const PyramidLevel& level : base.levels) {
                const auto x = linear_exact_taps(size.width, level.size.width);
                const auto y = linear_exact_taps(size.height, level.size.height);
                tx.insert(tx.end(), x.begin(), x.end());
                ty.insert(ty.end(), y.begin(), y.end());
            }
            upload(taps_x, tx, s);
            upload(taps_y, ty, s);
            CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));  // tx and ty go out of scope
        } else {
            frame_texture = TextureObject::bilinear_u8(frame.get(), size, frame_pitch);
        }
        CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
    }

    HogFeatureTarget feature_target() const {
        const FrameLayout& base = layout.base;
        return {levels.get(), word_levels.get(), static_cast<int>(base.gpu.size()), base.rows, layout.word_strips,
                base.gpu.empty() ? 0 : base.gpu.front().width, layout.pitch, pixels.get(), integrals.get()};
    }

    void upload_frame(const GrayView& image) {
        const cudaStream_t s = stream.get();
        for (int y = 0; y < image.height; ++y)
            std::memcpy(staging.get() + static_cast<std::size_t>(y) * image.width,
                        image.data + static_cast<std::ptrdiff_t>(y) * image.stride, static_cast<std::size_t>(image.width));
        started.record(s);
        CASCADE_CUDA_CHECK(cudaMemcpy2DAsync(frame.get(), frame_pitch, staging.get(), image.width, image.width,
                                             image.height, cudaMemcpyHostToDevice, s));
        uploaded.record(s);
    }

    void build_features() {
        const cudaStream_t s = stream.get();
        const HogFeatureTarget target = feature_target();
        if (options.mode == PyramidMode::exact) {
            const GrayView device_frame{frame.get(), layout.base.frame.width, layout.base.frame.height,
                                        static_cast<int>(frame_pitch)};
            resample_exact(target, device_frame, taps_x.get(), taps_y.get(), s, timer);
        } else {
            resample_texture(target, frame_texture.get(), layout.base.frame, s, timer);
        }
        build_integral_histograms(target, s, timer);
        pyramid_done.record(s);
    }

    CascadeResult evaluate(Compaction strategy) {
        const cudaStream_t s = stream.get();
        CASCADE_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, (kMaxGroups + 1) * sizeof(int), s));
        static const int survivor_blocks = [] {
            int device = 0, sms = 0;
            CASCADE_CUDA_CHECK(cudaGetDevice(&device));
            CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
            return sms * 8;
        }();
        const FrameLayout& base = layout.base;
        HogCascadeTarget target{};
        target.window = cascade.window;
        target.policy = cascade.policy;
        target.num_stages = static_cast<int>(cascade.stages.size());
        target.levels = levels.get();
        target.num_levels = static_cast<int>(base.gpu.size());
        target.tiles = base.tiles;
        target.shared_tiles = base.shared_tiles;
        target.grid_rows = base.grid_rows;
        target.integrals = integrals.get();
        target.stage0_rejected = options.rule.stride == 0 ? stage0_rejected.get() : nullptr;
        target.visited = options.rule.stride == 0 ? visited.get() : nullptr;
        target.lists[0] = lists[0].get();
        target.lists[1] = lists[1].get();
        target.counts = counts.get();
        target.survivor_blocks = survivor_blocks;
        const CascadeResult result = run_hog_cascade(target, ends, strategy, s, timer);
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
            out.push_back({to_image(layout.base.levels[static_cast<std::size_t>(r.level)], r.x, r.y),
                           static_cast<float>(r.sum)});
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
        stats.windows = layout.base.positions;
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
            throw InputError("GPU HoG detector", "empty frame");
        prepare(image.size());
        timer.reset(options.time_kernels);
        if (layout.base.levels.empty()) {  // the window does not fit: nothing to scan
            stats = HogGpuStats{};
            stats.strategy = trials.chosen();
            return {};
        }
        if (g_constant_owner.exchange(id) != id) upload_hog_constants(cascade, stream.get());
        const Compaction strategy = trials.next();
        upload_frame(image);
        build_features();
        const CascadeResult result = evaluate(strategy);
        std::vector<Detection> found = download(result);
        record_stats(strategy, found);
        return found;
    }
};

HogGpuDetector::HogGpuDetector(const HogCascade& cascade, const HogGpuOptions& options)
    : impl_(std::make_unique<Impl>(cascade, options)) {}
HogGpuDetector::~HogGpuDetector() = default;
HogGpuDetector::HogGpuDetector(HogGpuDetector&&) noexcept = default;
HogGpuDetector& HogGpuDetector::operator=(HogGpuDetector&&) noexcept = default;

std::vector<Detection> HogGpuDetector::detect(const GrayView& frame) { return impl_->detect(frame); }
const HogGpuStats& HogGpuDetector::last_stats() const { return impl_->stats; }
const HogGpuOptions& HogGpuDetector::options() const { return impl_->options; }
Compaction HogGpuDetector::chosen_compaction() const { return impl_->trials.chosen(); }

}  // namespace cascade::gpu
