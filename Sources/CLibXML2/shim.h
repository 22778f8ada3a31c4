#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, and its encoding.h then includes the system's ICU headers,
// whose enums clash with the toolchain's _FoundationICU in any Swift module that also imports
// Foundation. feedpull touches no ICU part of libxml2 (encoding handlers only by pointer), so
// the ICU fields are hidden from Swift.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>
#include <libxml/uri.h>
#include <libxml/entities.h>
#include <libxml/HTMLparser.h>
