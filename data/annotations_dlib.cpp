// dlib imglab XML datasets.
#include <tinyxml2.h>

#include "common/error.hpp"
#include "data/annotations.hpp"
#include "data/image_files.hpp"

namespace cascade::data {

namespace {

int int_attribute(const tinyxml2::XMLElement& e, const char* name, const std::string& path) {
    int value = 0;
    if (e.QueryIntAttribute(name, &value) != tinyxml2::XML_SUCCESS)
        throw InputError(path, "line " + std::to_string(e.GetLineNum()) + ": <" + e.Name() +
                                   "> lacks an integer attribute '" + name + "'");
    if (value < -kMaxCoordinate || value > kMaxCoordinate)
        throw InputError(path, "line " + std::to_string(e.GetLineNum()) + ": <" + e.Name() + "> attribute '" + name +
                                   "' " + std::to_string(value) + " is beyond +-" + std::to_string(kMaxCoordinate));
    return value;
}

}  // namespace

std::vector<AnnotatedImage> read_dlib_xml(const std::string& path) {
    tinyxml2::XMLDocument doc;
    if (doc.LoadFile(path.c_str()) != tinyxml2::XML_SUCCESS)
        throw InputError(path, std::string("cannot parse XML (") + doc.ErrorStr() + ")");
    const tinyxml2::XMLElement* images = doc.RootElement() ? doc.RootElement()->FirstChildElement("images") : nullptr;
    if (!images || std::string(doc.RootElement()->Name()) != "dataset")
        throw InputError(path, "not a dlib imglab dataset (expected <dataset><images>)");
    std::vector<AnnotatedImage> out;
    for (const auto* image = images->FirstChildElement("image"); image; image = image->NextSiblingElement("image")) {
        const char* file = image->Attribute("file");
        if (!file) throw InputError(path, "line " + std::to_string(image->GetLineNum()) + ": <image> lacks 'file'");
        AnnotatedImage entry{resolve_relative(file, path), {}};
        for (const auto* box = image->FirstChildElement("box"); box; box = box->NextSiblingElement("box")) {
            if (box->BoolAttribute("ignore", false)) continue;
            entry.boxes.push_back({int_attribute(*box, "left", path), int_attribute(*box, "top", path),
                                   int_attribute(*box, "width", path), int_attribute(*box, "height", path)});
            if (entry.boxes.back().width < 1 || entry.boxes.back().height < 1)
                throw InputError(path, "line " + std::to_string(box->GetLineNum()) + ": <box> is empty (width " +
                                           std::to_string(entry.boxes.back().width) + ", height " +
                                           std::to_string(entry.boxes.back().height) + ")");
        }
        out.push_back(std::move(entry));
    }
    return out;
}

}  // namespace cascade::data
