#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>
#include <libxml/uri.h>
#include <libxml/entities.h>
