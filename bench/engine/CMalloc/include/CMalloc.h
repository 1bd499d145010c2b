// glibc's malloc settings, which Swift's Glibc module does not offer (pick's own are in
// Sources/CPickSystem, which this package cannot import).
#include <malloc.h>
