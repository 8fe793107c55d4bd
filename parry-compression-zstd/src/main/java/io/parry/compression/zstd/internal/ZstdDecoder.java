package io.parry.compression.zstd.internal;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpData;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.protection.ContentCoding;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * zstd data read chunk by chunk, one frame after another (RFC 8878, section 3: data is one or more
 * frames). No array is ever larger than what is left of the bound plus one byte, so a body that
 * decodes a thousandfold costs at most the bound; a frame asking for a window over 8 MiB is refused
 * (RFC 9659), so neither can it make the decoder allocate a large window.
 */
public final class ZstdDecoder implements ContentCoding.Transform {
    /** 2^23 bytes: 8 MiB, the window an HTTP recipient must accept and need not exceed (RFC 9659). */
    private static final int WINDOW_LOG_MAX = 23;

    private final long maxSize;
    private final ZstdDecompressCtx ctx;
    private long size;
    private boolean inFrame;

    /** A decoder that fails once the decoded bytes would pass {@code maxSize}. */
    public ZstdDecoder(long maxSize) {
        this.maxSize = maxSize;
        this.ctx = new ZstdDecompressCtx().setLongMax(WINDOW_LOG_MAX);
    }

    @Override
    public HttpData apply(HttpData chunk) {
        ByteBuffer input = chunk.read(ByteBuffer::wrap);
        try {
            return decode(input, chunk.length());
        } catch (ZstdException e) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST, "The request body is not valid zstd data.", e);
        }
    }

    @Override
    public HttpData finish() {
        if (inFrame) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST, "The request body ended before its zstd data did.");
        }
        return HttpData.empty();
    }

    @Override
    public void close() {
        ctx.close();
    }

    private HttpData decode(ByteBuffer input, int inputLength) {
        if (!input.hasRemaining()) {
            return HttpData.empty();
        }
        long left = maxSize - size;
        byte[] out = new byte[(int) Math.min(Math.max(inputLength * 4L, 256), left + 1)];
        ByteBuffer output = ByteBuffer.wrap(out);
        while (true) {
            if (!output.hasRemaining()) {
                if (out.length > left) {
                    throw new ContentTooLargeException(maxSize);
                }
                int position = output.position();
                out = Arrays.copyOf(out, (int) Math.min(out.length * 2L, left + 1));
                output = ByteBuffer.wrap(out);
                output.position(position);
            }
            // True once a frame is decoded and flushed whole; another frame may follow it.
            inFrame = !ctx.decompressByteBufferStream(output, input);
            if (!input.hasRemaining() && (!inFrame || output.hasRemaining())) {
                break;
            }
        }
        int decoded = output.position();
        if (decoded > left) {
            throw new ContentTooLargeException(maxSize);
        }
        size += decoded;
        return HttpData.wrap(out, 0, decoded);
    }
}
