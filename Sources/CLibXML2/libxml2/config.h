/* cachectl's build configuration for the libxml2 it carries (2.15.3; ../README.md says which
 * files and why). libxml2's own build (meson.build, CMakeLists.txt) generates this file from
 * config.h.cmake.in; these are the values it generates on glibc and on macOS. The feature
 * switches are in ../include/libxml/xmlversion.h, generated from xmlversion.h.in the same way. */
#define HAVE_DECL_GETENTROPY 1
#define HAVE_DECL_GLOB 1
#define HAVE_DECL_MMAP 1
#define HAVE_FUNC_ATTRIBUTE_DESTRUCTOR 1
#define HAVE_STDINT_H 1
#define XML_SYSCONFDIR "/etc"
#define XML_THREAD_LOCAL _Thread_local
