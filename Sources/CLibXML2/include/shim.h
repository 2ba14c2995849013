#ifndef CACHECTL_CLIBXML2_SHIM_H
#define CACHECTL_CLIBXML2_SHIM_H

// The libxml2 this package carries (../libxml2, 2.15.3), built without ICU and iconv:
// cachectl gives the parser UTF-8 only (other charsets are transcoded first). (A system
// libxml2 built with ICU would clash with the ICU module Foundation ships on Linux.)
// The wrapper reads a few members and functions 2.15 marks deprecated (the parser's stack of
// open elements, xmlByteConsumed): the version is carried here, so they cannot go away
// under it. The marks are dropped rather than each use silenced.
#define XML_DEPRECATED
#define XML_DEPRECATED_MEMBER
#include <libxml/xmlversion.h>

#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <libxml/encoding.h>
#include <libxml/xmlerror.h>

#if defined(__linux__)
#include <malloc.h>
#endif

#endif
