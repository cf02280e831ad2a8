#ifndef HMON_ZLIB_CHECKSUM_H
#define HMON_ZLIB_CHECKSUM_H

#include <zlib.h>

/// zlib's CRC-32 (the one zip uses), continued from `crc` over `length` bytes. A wrapper so Swift sees
/// fixed-width types instead of zlib's `uLong` and `z_size_t`.
static inline unsigned int hmon_crc32(unsigned int crc, const void *bytes, unsigned long length) {
    return (unsigned int)crc32_z(crc, (const Bytef *)bytes, (z_size_t)length);
}

#endif
