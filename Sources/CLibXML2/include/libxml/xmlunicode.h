/**
 * @file
 * 
 * @brief Unicode character APIs
 * 
 * API for the Unicode character APIs
 *
 * Deprecated, don't use.
 */

#ifndef __XML_UNICODE_H__
#define __XML_UNICODE_H__

#ifdef __GNUC__
  #warning "libxml/xmlunicode.h is deprecated"
#endif

#endif /* __XML_UNICODE_H__ */
