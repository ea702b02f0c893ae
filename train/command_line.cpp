#include "train/command_line.hpp"

#include <iostream>
#include <regex>

#include "common/error.hpp"

namespace po = boost::program_options;

namespace cascade::train {

po::options_description dataset_options(DatasetSpec& spec, std::string& window, unsigned line_length) {
    po::options_description data("Data", line_length, line_length / 2);
    data.add_options()
        ("pos", po::value(&spec.positives)->composing(),
         "positives (repeatable): a folder or list file of crops, INRIA annotation files (a .txt, or a folder or "
         "list of them), a dlib imglab .xml, or an opencv_createsamples info file")
        ("neg", po::value(&spec.negatives)->composing(),
         "negative images (repeatable): a folder or list file of object-free images")
        ("window", po::value(&window)->default_value("64x128"), "detection window WxH")
        ("pos-margin", po::value(&spec.crop.margin)->default_value(-1),
         "crops: the object is the crop minus this margin, resized to the window (default: the window-sized "
         "centre of the crop, unscaled)")
        ("padding", po::value(&spec.crop.padding)->default_value(0.0, "0"),
         "annotated boxes: grow each side by this fraction of the box before cropping")
        ("mirror", po::bool_switch(&spec.crop.mirror), "add the mirror image of every training positive")
        ("holdout", po::value(&spec.holdout)->default_value(0.0, "0"),
         "hold out this fraction of the positive source photos and of the negative images, and measure the "
         "model on them after training");
    return data;
}

Size parse_window(const std::string& text, const std::string& option) {
    static const std::regex kSize(R"((\d{1,5})x(\d{1,5}))");
    std::smatch m;
    if (!std::regex_match(text, m, kSize)) throw InputError(option, "'" + text + "' is not WIDTHxHEIGHT");
    return {std::stoi(m[1]), std::stoi(m[2])};
}

bool parse_command_line(int argc, char** argv, const po::options_description& options, const std::string& usage,
                        po::variables_map& vm) {
    po::store(po::command_line_parser(argc, argv).options(options).run(), vm);
    if (vm.count("help")) {
        std::cout << usage << "\n" << options << "\n";
        return false;
    }
    po::notify(vm);
    return true;
}

int run_reporting_errors(const std::string& name, const std::function<int(bool& usage_phase)>& body) {
    bool usage_phase = true;
    try {
        return body(usage_phase);
    } catch (const po::error& e) {
        std::cerr << "cascade-train " << name << ": error: " << e.what() << " (see --help)\n";
        return 2;
    } catch (const InputError& e) {
        std::cerr << "cascade-train " << name << ": error: " << e.what() << "\n";
        return usage_phase ? 2 : 1;
    } catch (const std::exception& e) {
        std::cerr << "cascade-train " << name << ": error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace cascade::train
