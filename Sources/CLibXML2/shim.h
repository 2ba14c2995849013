#ifndef CACHECTL_CLIBXML2_SHIM_H
#define CACHECTL_CLIBXML2_SHIM_H

// libxml2's encoding.h includes ICU's headers when LIBXML_ICU_ENABLED is set, and those
// clash with the ICU module Foundation ships on Linux: a clean build fails. Undefining it
// after xmlversion.h only changes trailing fields of a struct we never allocate.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <libxml/encoding.h>
#include <libxml/xmlerror.h>

#if defined(__linux__)
#include <malloc.h>
#endif

#endif
