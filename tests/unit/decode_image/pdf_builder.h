// Builds small PDFs for the document tests: one page per content stream.
#ifndef SCAMCHECK_TESTS_UNIT_DECODE_IMAGE_PDF_BUILDER_H_
#define SCAMCHECK_TESTS_UNIT_DECODE_IMAGE_PDF_BUILDER_H_

#include <cstdio>
#include <string>
#include <vector>

namespace scamcheck::testing {

// A PDF of one page per content stream (US Letter, Helvetica as /F1);
// `trailer_extra` goes into the trailer dictionary, `objects_extra` after
// the pages (numbered from 4 + 2 * pages).
inline std::string pdf_of(const std::vector<std::string>& contents,
                          const std::string& trailer_extra = "",
                          const std::vector<std::string>& objects_extra = {}) {
  std::vector<std::string> objects{"<< /Type /Catalog /Pages 2 0 R >>", "",
                                   "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                                   "/Encoding /WinAnsiEncoding >>"};
  std::string kids;
  for (std::size_t i = 0; i < contents.size(); ++i) {
    kids += std::to_string(4 + 2 * i) + " 0 R ";
    objects.push_back(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
        "<< /F1 3 0 R >> >> /Contents " +
        std::to_string(5 + 2 * i) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(contents[i].size()) + " >>\nstream\n" +
                      contents[i] + "\nendstream");
  }
  objects[1] =
      "<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(contents.size()) + " >>";
  objects.insert(objects.end(), objects_extra.begin(), objects_extra.end());
  std::string out = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t o : offsets) {
    char line[32];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", o);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R " +
         trailer_extra + " >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

}  // namespace scamcheck::testing

#endif  // SCAMCHECK_TESTS_UNIT_DECODE_IMAGE_PDF_BUILDER_H_
