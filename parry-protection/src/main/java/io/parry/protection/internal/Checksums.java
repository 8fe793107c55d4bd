package io.parry.protection.internal;

import io.parry.http.HttpData;
import java.util.zip.CRC32;

/** CRC-32 over a chunk in place: {@link CRC32#update(java.nio.ByteBuffer)} copies a read-only buffer 4 KiB at a time. */
final class Checksums {
    private Checksums() {}

    static void update(CRC32 crc, HttpData data) {
        data.read((bytes, offset, length) -> {
            crc.update(bytes, offset, length);
            return null;
        });
    }
}
