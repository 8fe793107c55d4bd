package io.parry.compression.zstd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpData;
import io.parry.http.HttpStatusException;
import io.parry.protection.ContentCoding;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ZstdCodingTest {
    private static final String TEXT = "zstd streams one chunk at a time. ".repeat(2000);

    @Test
    void decodesWhatItEncodesChunkByChunkEachChunkWhole() {
        ContentCoding.Transform encoder = ZstdCoding.ofDefault().encoder();
        ContentCoding.Transform decoder = ZstdCoding.ofDefault().decoder(1 << 20);
        StringBuilder decoded = new StringBuilder();
        try {
            for (String part : new String[] {TEXT, "", "middle", TEXT}) {
                HttpData encoded = encoder.apply(HttpData.ofUtf8(part));
                // Flushed: each chunk decodes whole before the next is encoded.
                assertThat(decoder.apply(encoded).toStringUtf8()).isEqualTo(part);
                decoded.append(part);
            }
            assertThat(decoder.apply(encoder.finish()).isEmpty()).isTrue();
            assertThat(decoder.finish().isEmpty()).isTrue();
        } finally {
            encoder.close();
            decoder.close();
        }
        assertThat(decoded).hasSize(TEXT.length() * 2 + "middle".length());
    }

    @Test
    void encodesAWholeBodyAsOneFrame() {
        HttpData encoded = ZstdCoding.of(5).encode(HttpData.ofUtf8(TEXT));

        assertThat(new String(Zstd.decompress(encoded.toByteArray(), TEXT.length()), StandardCharsets.UTF_8))
                .isEqualTo(TEXT);
    }

    @Test
    void readsFramesOneAfterAnotherAndByteByByte() {
        byte[] one = Zstd.compress("first ".getBytes(StandardCharsets.UTF_8));
        byte[] two = Zstd.compress("second".getBytes(StandardCharsets.UTF_8));
        byte[] both = Arrays.copyOf(one, one.length + two.length);
        System.arraycopy(two, 0, both, one.length, two.length);
        ContentCoding.Transform decoder = ZstdCoding.ofDefault().decoder(1 << 20);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            for (byte b : both) {
                out.writeBytes(decoder.apply(HttpData.wrap(new byte[] {b})).toByteArray());
            }
            decoder.finish();
        } finally {
            decoder.close();
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("first second");
    }

    @Test
    void failsDataThatEndsEarlyOrIsNoZstd() {
        byte[] frame = Zstd.compress(TEXT.getBytes(StandardCharsets.UTF_8));
        ContentCoding.Transform truncated = ZstdCoding.ofDefault().decoder(1 << 20);
        ContentCoding.Transform garbage = ZstdCoding.ofDefault().decoder(1 << 20);
        try {
            truncated.apply(HttpData.wrap(frame, 0, frame.length - 3));
            assertThatThrownBy(truncated::finish)
                    .isInstanceOf(HttpStatusException.class)
                    .hasMessage("The request body ended before its zstd data did.");
            assertThatThrownBy(() -> garbage.apply(HttpData.ofUtf8("no zstd here")))
                    .isInstanceOf(HttpStatusException.class)
                    .hasMessage("The request body is not valid zstd data.");
        } finally {
            truncated.close();
            garbage.close();
        }
    }

    @Test
    void stopsABombAtTheBoundWithoutHoldingMore() {
        byte[] bomb = Zstd.compress(new byte[16 << 20]);
        ContentCoding.Transform decoder = ZstdCoding.ofDefault().decoder(100_000);
        try {
            assertThatThrownBy(() -> decoder.apply(HttpData.wrap(bomb))).isInstanceOf(ContentTooLargeException.class);
        } finally {
            decoder.close();
        }
    }

    @Test
    void refusesAFrameWhoseWindowIsOver8MiB() {
        ByteBuffer frame = ByteBuffer.allocate(1 << 20);
        try (ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(3).setWindowLog(24)) {
            // Streamed, so that the encoder cannot shrink the window to a size it knows.
            ctx.compressByteBufferStream(frame, ByteBuffer.wrap(new byte[1 << 16]), EndDirective.CONTINUE);
            while (!ctx.compressByteBufferStream(frame, ByteBuffer.allocate(0), EndDirective.END)) {
                assertThat(frame.hasRemaining()).isTrue();
            }
        }
        frame.flip();
        ContentCoding.Transform decoder = ZstdCoding.ofDefault().decoder(32 << 20);
        try {
            assertThatThrownBy(() -> decoder.apply(HttpData.wrap(frame.array(), 0, frame.limit())))
                    .isInstanceOf(HttpStatusException.class)
                    .hasMessage("The request body is not valid zstd data.");
        } finally {
            decoder.close();
        }
    }

    @Test
    void isAValueWithItsLevelInRange() {
        assertThat(ZstdCoding.isAvailable()).isTrue();
        assertThat(ZstdCoding.of(3)).isEqualTo(ZstdCoding.ofDefault()).hasSameHashCodeAs(ZstdCoding.ofDefault());
        assertThat(ZstdCoding.of(3).token()).isEqualTo("zstd");
        assertThatThrownBy(() -> ZstdCoding.of(0)).hasMessage("level: 0 (expected: 1 to 19)");
        assertThatThrownBy(() -> ZstdCoding.of(20)).hasMessage("level: 20 (expected: 1 to 19)");
    }
}
