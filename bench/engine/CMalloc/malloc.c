// SwiftPM builds a C target only with a source file; the header is what is used.
#include "CMalloc.h"
