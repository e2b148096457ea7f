# Imported targets for libscamcheck's dependencies, all Debian packages.
# Used by the build and, for static builds, by the installed package config
# (a static library's private dependencies must still be linked by consumers).
include(CMakeFindDependencyMacro)
find_package(PkgConfig REQUIRED)

macro(_scamcheck_pkg target module hint)
  if(NOT TARGET ${target})
    pkg_check_modules(_sc_${module} QUIET IMPORTED_TARGET GLOBAL ${module})
    if(NOT _sc_${module}_FOUND)
      message(FATAL_ERROR "Could NOT find ${module}. Hint: apt-get install ${hint} "
                          "(scripts/install-deps.sh installs everything)")
    endif()
    add_library(${target} ALIAS PkgConfig::_sc_${module})
  endif()
endmacro()

_scamcheck_pkg(scamcheck_dep::re2 re2 libre2-dev)
_scamcheck_pkg(scamcheck_dep::utf8proc libutf8proc libutf8proc-dev)
_scamcheck_pkg(scamcheck_dep::icu icu-uc libicu-dev)
_scamcheck_pkg(scamcheck_dep::icui18n icu-i18n libicu-dev)
_scamcheck_pkg(scamcheck_dep::curl libcurl libcurl4-openssl-dev)
_scamcheck_pkg(scamcheck_dep::psl libpsl libpsl-dev)
_scamcheck_pkg(scamcheck_dep::idn2 libidn2 libidn2-dev)
_scamcheck_pkg(scamcheck_dep::gmime gmime-3.0 libgmime-3.0-dev)
_scamcheck_pkg(scamcheck_dep::gumbo gumbo libgumbo-dev)
# Images and documents (decode/): OCR, QR codes, PDF, DOCX.
_scamcheck_pkg(scamcheck_dep::tesseract tesseract libtesseract-dev)
_scamcheck_pkg(scamcheck_dep::lept lept libleptonica-dev)
_scamcheck_pkg(scamcheck_dep::zxing zxing libzxing-dev)
_scamcheck_pkg(scamcheck_dep::poppler_cpp poppler-cpp libpoppler-cpp-dev)
# PDF text (decode/pdf_text.*): poppler's core (Gfx, an OutputDev of our own);
# its headers are in libpoppler-private-dev, the library in libpoppler-dev.
_scamcheck_pkg(scamcheck_dep::poppler poppler libpoppler-private-dev)
_scamcheck_pkg(scamcheck_dep::zip libzip libzip-dev)
_scamcheck_pkg(scamcheck_dep::pugixml pugixml libpugixml-dev)
if(NOT TARGET simdjson::simdjson)
  find_dependency(simdjson)
endif()
