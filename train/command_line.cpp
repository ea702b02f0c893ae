#include "train/command_line.hpp"

#include <filesystem>
#include <iostream>

#include "cli/output_paths.hpp"
#include "cli/program_options.hpp"
#include "cli/usage_error.hpp"
#include "data/crop_options.hpp"

namespace po = boost::program_options;

namespace cascade::train {

po::options_description dataset_options(data::DatasetSpec& spec, std::string& window, unsigned line_length,
                                        const std::string& default_window) {
    po::options_description options("Data", line_length, line_length / 2);
    options.add_options()
        ("pos", po::value(&spec.positives)->composing(),
         "positives (repeatable): a folder (read with its nested folders when it holds no images itself: UMIST's "
         "person/face/*.pgm) or list file of crops, INRIA annotation files (a .txt, or a folder or list of them), "
         "a dlib imglab .xml, an opencv_createsamples info file, or an opencv_createsamples .vec file of "
         "window-sized samples")
        ("neg", po::value(&spec.negatives)->composing(),
         "negative images (repeatable): a folder or list file of object-free images")
        ("window", po::value(&window)->default_value(default_window), "detection window WxH")
        ("pos-margin", po::value<std::string>()->value_name("N|T,R,B,L")->notifier([&spec](const std::string& text) {
             spec.crop.margin = data::parse_margin("--pos-margin", text);
         }),
         "crops: the object is the crop minus this margin (N pixels on every side, or top,right,bottom,left), "
         "resized to the window (default: the window-sized centre of the crop, unscaled; the log says when "
         "crops are larger)")
        ("group-by", po::value<std::string>()->value_name("name|folder")->notifier([&spec](const std::string& text) {
             spec.group_by = data::parse_group_by("--group-by", text);
         }),
         "crops that come from one photo or person, kept on one side of the --holdout and --calibration splits: "
         "name (the file name less its trailing lower-case letters: INRIA's crop001001a..f) or folder (the "
         "folder holding the file: UMIST's person/face/*.pgm) (default: name)")
        ("padding", po::value(&spec.crop.padding)->default_value(0.0, "0"),
         "annotated boxes: grow each side by this fraction of the box before cropping")
        ("mirror", po::bool_switch(&spec.crop.mirror), "add the mirror image of every training positive")
        ("jitter", po::value(&spec.crop.jitter.copies)->default_value(0),
         "add this many shifted and scaled copies of every training crop, resampled from the crop with its "
         "margin (an annotated box: with a quarter of its size around it) (random, from --seed)")
        ("jitter-shift", po::value(&spec.crop.jitter.shift)->default_value(spec.crop.jitter.shift, "4"),
         "jitter: shift of at most this many window pixels in x and in y")
        ("jitter-scale", po::value(&spec.crop.jitter.scale)->default_value(spec.crop.jitter.scale, "1.1"),
         "jitter: size factor between 1/F and F")
        ("jitter-rotation", po::value(&spec.crop.jitter.rotation)->default_value(0.0, "0"),
         "jitter: rotation of at most this many degrees, in [0, 45]")
        ("jitter-noise", po::value(&spec.crop.jitter.noise)->default_value(0.0, "0"),
         "jitter: Gaussian noise of this standard deviation (grey levels, in [0, 64]) on each copy's window")
        ("holdout", po::value(&spec.holdout)->default_value(0.0, "0"),
         "hold out this fraction of the positive source photos and of the negative images, and measure the "
         "model on them after training");
    return options;
}

void add_crop_training_options(po::options_description& options, CropTrainingOptions& s) {
    // clang-format off
    options.add_options()
        ("pos", po::value(&s.positive_dirs)->composing(), "folder or list file of positive crops (repeatable)")
        ("neg", po::value(&s.negative_dirs)->composing(), "folder or list file of object-free images (repeatable)")
        ("output,o", po::value(&s.output), "the model to write (the project's XML)")
        ("pos-margin", po::value<std::string>()->default_value("16")->notifier(
             [&s](const std::string& t) { s.margin = data::parse_margin("--pos-margin", t); }),
         "pixels around the 64x128 window in each crop: N on every side, or top,right,bottom,left")
        ("group-by", po::value<std::string>()->default_value("name")->notifier(
             [&s](const std::string& t) { s.group_by = data::parse_group_by("--group-by", t); }),
         "crops of one photo or person, kept on one side of the --holdout (and --calibration) splits: name (INRIA's "
         "crop001001a..f) or folder (UMIST's person/face/*.pgm)")
        ("holdout", po::value(&s.holdout)->default_value(0.2), "fraction of source photos and negative images held out")
        ("jitter", po::value(&s.jitter.copies)->default_value(0), "add this many shifted and scaled copies of every fitting crop (data/positive_samples.hpp)")
        ("jitter-shift", po::value(&s.jitter.shift)->default_value(s.jitter.shift, "4"), "jitter: shift of at most this many pixels in x and in y")
        ("jitter-scale", po::value(&s.jitter.scale)->default_value(s.jitter.scale, "1.1"), "jitter: size factor between 1/F and F")
        ("threads", po::value(&s.threads)->default_value(0), "worker threads (0: all cores)");
    // clang-format on
}

void check_dataset_options(const data::DatasetSpec& spec) {
    if (spec.positives.empty()) throw cli::UsageError("--pos", "is required");
    if (spec.negatives.empty()) throw cli::UsageError("--neg", "is required");
    // Beyond 10 (a box grown 21 times) the crop is mostly background; the bound also keeps the arithmetic finite.
    if (!(spec.crop.padding >= 0.0 && spec.crop.padding <= 10.0))
        throw cli::UsageError("--padding", "must lie in [0, 10]");
    if (!(spec.holdout >= 0.0 && spec.holdout < 1.0)) throw cli::UsageError("--holdout", "must lie in [0, 1)");
}

void check_training_outputs(const std::string& output, const std::string& checkpoint,
                            const std::vector<std::string>& inputs) {
    cli::check_writable_path("--output", output);
    cli::check_not_an_input("--output", output, inputs);
    cli::check_not_an_input("--checkpoint", checkpoint, inputs);
    if (!output.empty() && !checkpoint.empty() &&
        std::filesystem::weakly_canonical(output) == std::filesystem::weakly_canonical(checkpoint))
        throw cli::UsageError("--checkpoint", "'" + checkpoint + "' is the --output file; it would be overwritten");
}

bool parse_command_line(int argc, const char* const* argv, const po::options_description& options, const std::string& usage,
                        po::variables_map& vm) {
    po::command_line_parser parser(argc, argv);
    parser.options(options);
    if (cli::parse_options(parser, vm)) return true;
    std::cout << usage << "\n" << options << "\n";
    return false;
}

}  // namespace cascade::train
