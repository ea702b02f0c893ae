#include "gpu/detector_core.hpp"

#include <algorithm>
#include <cstring>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/skip_rule_gpu.hpp"

namespace cascade::gpu {

namespace {

std::atomic<std::uint64_t> g_next_id{1};

// Accepted windows copied back with the counts, before their number is known, so that a frame with at most this
// many costs one synchronisation, not two (a frame's accepted windows number in the hundreds at most, except
// for models that accept nearly everything).
constexpr std::size_t kRecordsAhead = 4096;

// Blocks of the skip rule's filter, which loops over the accepted windows: several per multiprocessor.
int filter_blocks() {
    static const int blocks = [] {
        int device = 0, sms = 0;
        CASCADE_CUDA_CHECK(cudaGetDevice(&device));
        CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return sms * 8;
    }();
    return blocks;
}

void check_options(const GpuOptions& o) {
    if (!(o.pyramid.scale_factor > 1.0)) throw InputError("GPU detector", "scale factor must be > 1");
    if (o.rule.stride < 0) throw InputError("GPU detector", "stride must be >= 0");
    for (std::size_t i = 0; i < o.compaction_points.size(); ++i)
        if (o.compaction_points[i] <= 0 || (i > 0 && o.compaction_points[i] <= o.compaction_points[i - 1]))
            throw InputError("GPU detector", "compaction points must be positive and increasing");
    if (o.auto_frames < 2) throw InputError("GPU detector", "auto_frames must be >= 2");
}

}  // namespace

DetectorCore::DetectorCore(const GpuOptions& options, const std::vector<Stage>& stages, SumPolicy policy,
                           ConstantOwner& constant_owner)
    : options_(options),
      num_stages_(static_cast<int>(stages.size())),
      policy_(policy),
      owner_(constant_owner),
      id_(g_next_id++),
      trials_(options.compaction, options.auto_frames) {
    check_options(options_);
    CASCADE_CUDA_CHECK(cudaGetDevice(&device_));
    if (device_ >= ConstantOwner::kMaxDevices)
        throw InputError("GPU detector", "device " + std::to_string(device_) + ": at most " +
                                             std::to_string(ConstantOwner::kMaxDevices) + " devices");
    if (stages.empty()) throw InputError("GPU detector", "the model has no stages");
    ends_ = group_ends(stages, options_.compaction_points);
    if (ends_.size() > static_cast<std::size_t>(kMaxGroups))
        throw InputError("GPU detector", "at most " + std::to_string(kMaxGroups - 1) + " compaction points");
    for (int e : ends_) ends_weak_.push_back(stages[e - 1].first + stages[e - 1].count);
}

DetectorCore::~DetectorCore() = default;

void DetectorCore::claim_constants() {
    upload_constants();
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream()));
    owner_.take(device_, id_);
}

void DetectorCore::prepare(Size size) {
    if (layout_ && layout_->frame == size) return;
    layout_ = &make_layout(size);
    const FrameLayout& layout = *layout_;
    const cudaStream_t s = stream();
    frame_pitch_ = texture_pitch(size.width);
    frame_.resize(frame_pitch_ * size.height);
    staging_.resize(static_cast<std::size_t>(size.width) * size.height);
    copy_to_device(levels_, layout.gpu, s);
    const std::size_t positions = static_cast<std::size_t>(std::max<long long>(layout.positions, 1));
    for (auto& list : lists_) list.resize(positions);
    if (options_.rule.stride == 0) {
        stage0_rejected_.resize(positions);
        visited_.resize(positions);
    }
    counts_.resize(kMaxGroups + 1);
    host_counts_.resize(kMaxGroups + 1);
    host_records_.resize(std::min(kRecordsAhead, positions));
    std::vector<ResizeTap> tx, ty;
    if (options_.mode == PyramidMode::exact) {
        for (const PyramidLevel& level : layout.levels) {
            const auto x = linear_exact_taps(size.width, level.size.width);
            const auto y = linear_exact_taps(size.height, level.size.height);
            tx.insert(tx.end(), x.begin(), x.end());
            ty.insert(ty.end(), y.begin(), y.end());
        }
        copy_to_device(taps_x_, tx, s);
        copy_to_device(taps_y_, ty, s);
    } else {
        frame_texture_ = TextureObject::bilinear_u8(frame_.get(), size, frame_pitch_);
    }
    allocate_planes(device_frame());
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));  // the host vectors go out of scope
}

DeviceFrame DetectorCore::device_frame() const {
    const bool exact = options_.mode == PyramidMode::exact;
    return {{frame_.get(), layout_->frame.width, layout_->frame.height, static_cast<int>(frame_pitch_)},
            exact ? 0 : frame_texture_.get(),
            exact ? taps_x_.get() : nullptr,
            exact ? taps_y_.get() : nullptr,
            levels_.get()};
}

void DetectorCore::upload(const GrayView& image) {
    const cudaStream_t s = stream();
    for (int y = 0; y < image.height; ++y)
        std::memcpy(staging_.get() + static_cast<std::size_t>(y) * image.width,
                    image.data + static_cast<std::ptrdiff_t>(y) * image.stride, static_cast<std::size_t>(image.width));
    started_.record(s);
    CASCADE_CUDA_CHECK(cudaMemcpy2DAsync(frame_.get(), frame_pitch_, staging_.get(), image.width, image.width,
                                         image.height, cudaMemcpyHostToDevice, s));
    uploaded_.record(s);
}

// Runs the cascade and, with OpenCV's rule, drops accepted windows at unvisited positions where the cascade's
// launch has not (cascade_target.hpp drops_unvisited_early); returns the index of the counter that holds the
// accepted windows (in lists_[counter % 2]).
int DetectorCore::evaluate(Compaction strategy) {
    const cudaStream_t s = stream();
    const FrameLayout& layout = *layout_;
    CASCADE_CUDA_CHECK(cudaMemsetAsync(counts_.get(), 0, (kMaxGroups + 1) * sizeof(int), s));
    const bool skip_rule = options_.rule.stride == 0;
    const CascadeTarget target{levels_.get(),
                               static_cast<int>(layout.gpu.size()),
                               layout.tiles,
                               layout.shared_tiles,
                               num_stages_,
                               policy_,
                               skip_rule ? stage0_rejected_.get() : nullptr,
                               visited_.get(),
                               layout.grid_rows,
                               {lists_[0].get(), lists_[1].get()},
                               counts_.get()};
    const std::vector<int> ends = strategy == Compaction::none ? std::vector<int>{num_stages_} : ends_;
    run_cascade(target, ends, strategy, timer_);
    int last = static_cast<int>(ends.size()) - 1;
    if (skip_rule && !drops_unvisited_early(strategy, ends.size())) {
        const SkipTarget skip{levels_.get(), target.num_levels, layout.grid_rows, stage0_rejected_.get(),
                              visited_.get()};
        resolve_skips(skip, s, timer_);
        filter_visited(skip, lists_[last % 2].get(), &counts_.get()[last], lists_[(last + 1) % 2].get(),
                       &counts_.get()[last + 1], filter_blocks(), s, timer_);
        ++last;
    }
    cascade_done_.record(s);
    return last;
}

std::vector<Detection> DetectorCore::download(int last) {
    const cudaStream_t s = stream();
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_counts_.get(), counts_.get(), (kMaxGroups + 1) * sizeof(int),
                                       cudaMemcpyDeviceToHost, s));
    const std::size_t ahead = std::min(host_records_.size(), kRecordsAhead);
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_records_.get(), lists_[last % 2].get(), ahead * sizeof(Survivor),
                                       cudaMemcpyDeviceToHost, s));
    downloaded_.record(s);
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
    const int n = host_counts_.get()[last];
    if (static_cast<std::size_t>(n) > ahead) {  // more than came ahead: all of them now
        host_records_.resize(static_cast<std::size_t>(n));
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_records_.get(), lists_[last % 2].get(), n * sizeof(Survivor),
                                           cudaMemcpyDeviceToHost, s));
        downloaded_.record(s);
        CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
    }
    std::vector<Detection> out;
    out.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const Survivor& r = host_records_.get()[i];
        out.push_back(
            {to_image(layout_->levels[static_cast<std::size_t>(r.level)], r.x, r.y), static_cast<float>(r.sum)});
    }
    std::sort(out.begin(), out.end(), [](const Detection& a, const Detection& b) {
        return a.rect < b.rect || (a.rect == b.rect && a.score < b.score);
    });
    return out;
}

void DetectorCore::record_stats(Compaction strategy, const std::vector<Detection>& found) {
    stats_.strategy = strategy;
    stats_.group_end_stage = ends_;
    stats_.group_end_weak = ends_weak_;
    stats_.windows = layout_->positions;
    stats_.survivors.assign(ends_.size(), -1);
    if (strategy == Compaction::none)
        stats_.survivors.back() = host_counts_.get()[0];
    else
        for (std::size_t g = 0; g < ends_.size(); ++g) stats_.survivors[g] = host_counts_.get()[g];
    stats_.detections = static_cast<long long>(found.size());
    stats_.upload_ms = uploaded_.since(started_);
    stats_.pyramid_ms = planes_done_.since(uploaded_);
    stats_.cascade_ms = cascade_done_.since(planes_done_);
    stats_.download_ms = downloaded_.since(cascade_done_);
    stats_.gpu_ms = cascade_done_.since(uploaded_);
    stats_.kernels = timer_.collect();
    trials_.record(stats_.gpu_ms);
}

std::vector<Detection> DetectorCore::detect(const GrayView& image) {
    if (image.width <= 0 || image.height <= 0 || image.data == nullptr)
        throw InputError("GPU detector", "empty frame");
    CASCADE_CUDA_CHECK(cudaSetDevice(device_));
    prepare(image.size());
    timer_.reset(options_.time_kernels);
    if (layout_->levels.empty()) {  // the window does not fit: nothing to scan
        stats_ = GpuStats{};
        stats_.strategy = trials_.chosen();
        return {};
    }
    if (owner_.take(device_, id_)) upload_constants();
    const Compaction strategy = trials_.next();
    upload(image);
    build_planes(device_frame(), strategy, timer_);
    planes_done_.record(stream());
    const int last = evaluate(strategy);
    std::vector<Detection> found = download(last);
    record_stats(strategy, found);
    return found;
}

}  // namespace cascade::gpu
