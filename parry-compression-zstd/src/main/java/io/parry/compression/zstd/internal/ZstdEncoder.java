package io.parry.compression.zstd.internal;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import io.parry.http.HttpData;
import io.parry.protection.ContentCoding;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A zstd frame written chunk by chunk: each chunk ends with {@link EndDirective#FLUSH}, so that what was
 * given so far can be decoded whole, and the end with {@link EndDirective#END} (the last block).
 *
 * <p>zstd-jni's streaming call over heap buffers rather than Netty's {@code ZstdEncoder}: that one is a
 * pipeline handler that buffers up to a block size before it writes, while a body here is a stream of
 * immutable heap chunks, each of which must leave at once.
 */
public final class ZstdEncoder implements ContentCoding.Transform {
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final ZstdCompressCtx ctx;

    /** An encoder at this level (1 to 19). */
    public ZstdEncoder(int level) {
        this.ctx = new ZstdCompressCtx().setLevel(level);
    }

    @Override
    public HttpData apply(HttpData chunk) {
        ByteBuffer input = chunk.read(ByteBuffer::wrap);
        return stream(input, chunk.length() / 2 + 64, EndDirective.FLUSH);
    }

    @Override
    public HttpData finish() {
        return stream(NOTHING.duplicate(), 64, EndDirective.END);
    }

    @Override
    public void close() {
        ctx.close();
    }

    /** All the context gives for its input with this directive, in one array grown as it fills. */
    private HttpData stream(ByteBuffer input, int sizeHint, EndDirective directive) {
        byte[] out = new byte[sizeHint];
        ByteBuffer output = ByteBuffer.wrap(out);
        while (!ctx.compressByteBufferStream(output, input, directive)) {
            if (!output.hasRemaining()) {
                int position = output.position();
                out = Arrays.copyOf(out, out.length * 2);
                output = ByteBuffer.wrap(out);
                output.position(position);
            }
        }
        return HttpData.wrap(out, 0, output.position());
    }
}
