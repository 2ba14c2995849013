// zlib, for undoing a response's gzip or deflate content coding (CacheKitFetch's
// ContentDecoder only).
#include <zlib.h>
