package io.parry.compression.zstd.internal;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.parry.http.HttpData;

/**
 * Compresses a whole body into one frame. Event-loop threads keep one context per level, since a
 * context's tables cost more to set up than a small body costs to compress; other threads (workers,
 * virtual threads) make their own and close it at once.
 */
public final class ZstdWhole {
    private static final FastThreadLocal<ZstdCompressCtx[]> LOCAL = new FastThreadLocal<>() {
        @Override
        protected ZstdCompressCtx[] initialValue() {
            return new ZstdCompressCtx[20];
        }
    };

    private ZstdWhole() {}

    /** The body as one zstd frame at this level (1 to 19), its size written in the frame header. */
    public static HttpData compress(int level, HttpData body) {
        if (Thread.currentThread() instanceof FastThreadLocalThread) {
            ZstdCompressCtx[] contexts = LOCAL.get();
            if (contexts[level] == null) {
                contexts[level] = new ZstdCompressCtx().setLevel(level);
            }
            return compress(contexts[level], body);
        }
        try (ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(level)) {
            return compress(ctx, body);
        }
    }

    private static HttpData compress(ZstdCompressCtx ctx, HttpData body) {
        byte[] out = new byte[(int) Zstd.compressBound(body.length())];
        int length =
                body.read((bytes, offset, count) -> ctx.compressByteArray(out, 0, out.length, bytes, offset, count));
        return HttpData.wrap(out, 0, length);
    }
}
