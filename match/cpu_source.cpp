// The CPU reference as cascade-match's map source (match/map_source.hpp).
#include "common/covariance_integrals.hpp"
#include "match/covariance_map.hpp"
#include "match/map_source.hpp"
#include "match/score_map.hpp"

namespace cascade::match {

namespace {

class CpuSource : public MapSource {
public:
    CpuSource(const Options& options, const TemplatePlanes& templates) : options_(options), templates_(templates) {}

    // `fill` is empty: this source has no staging.
    std::vector<ScoreMap> maps(const MatchPlanes& image, const GrayView& grey, const StagingFill&) override {
        std::vector<ScoreMap> out;
        if (!options_.covariance) {
            for (const MatchPlanes& t : templates_.sizes)
                out.push_back(score_map(image, t, options_.method, options_.threads));
            return out;
        }
        CovarianceIntegrals integrals;
        build_covariance_integrals(image, grey, {image.channels, options_.extended}, integrals);
        for (const MatchPlanes& t : templates_.sizes)
            out.push_back(covariance_map(integrals, {t.width(), t.height()}, templates_.target, *options_.covariance,
                                         options_.step, options_.threads));
        return out;
    }

    std::vector<std::vector<MatchPosition>> exact(const MatchPlanes& image) override {
        std::vector<std::vector<MatchPosition>> out;
        for (const MatchPlanes& t : templates_.sizes) out.push_back(exact_matches(image, t, options_.threads));
        return out;
    }

private:
    const Options& options_;
    const TemplatePlanes& templates_;
};

}  // namespace

std::unique_ptr<MapSource> make_cpu_source(const Options& options, const TemplatePlanes& templates) {
    return std::make_unique<CpuSource>(options, templates);
}

}  // namespace cascade::match
