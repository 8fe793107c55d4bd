package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.parry.http.HttpResponse;
import io.parry.server.ServerOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A fixed HTTP/2 response body leaves from direct memory, copied there once per connection. */
class Http2FixedBodyTest {
    private static final HttpResponse HELLO = HttpResponse.ofText("hello");

    private final Queue<HttpResponse> answers = new ArrayDeque<>();
    private final DataPayloads payloads = new DataPayloads();
    private final ServerRuntime runtime = new ServerRuntime(
            ServerOptions.ofDefault(),
            (ctx, request) -> CompletableFuture.completedFuture(answers.remove()),
            new RequestListeners(List.of()),
            null);
    private final EmbeddedChannel channel = new EmbeddedChannel(payloads, Http2ServerConnection.create(runtime, null));

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    @Test
    void sendsAConstantBodyFromDirectMemoryOnEveryStream() throws Exception {
        answers.add(HELLO);
        answers.add(HELLO);

        channel.writeInbound(Http2RequestBytes.get());
        channel.writeInbound(Http2RequestBytes.get(3));

        assertThat(payloads.texts).containsExactly("hello", "hello");
        assertThat(payloads.direct).containsExactly(true, true);
    }

    @Test
    void sendsEachOfTwoAlternatingBodiesWhole() throws Exception {
        answers.add(HELLO);
        answers.add(HttpResponse.ofText("bye"));
        answers.add(HELLO);

        channel.writeInbound(Http2RequestBytes.get());
        channel.writeInbound(Http2RequestBytes.get(3));
        channel.writeInbound(Http2RequestBytes.get(5));

        assertThat(payloads.texts).containsExactly("hello", "bye", "hello");
    }

    @Test
    void sendsALargeBodyFromItsOwnBytes() throws Exception {
        String large = "x".repeat(FixedBodyCopy.MAX_BYTES + 1);
        answers.add(HttpResponse.ofText(large));

        channel.writeInbound(Http2RequestBytes.get());

        assertThat(payloads.texts).containsExactly(large);
        assertThat(payloads.direct).containsExactly(false);
    }

    /** Keeps the text of each DATA frame's payload, and whether it was in direct memory, and drops every write. */
    private static final class DataPayloads extends ChannelOutboundHandlerAdapter {
        private static final int FRAME_HEADER_BYTES = 9;
        private static final byte DATA = 0x0;

        final List<String> texts = new ArrayList<>();
        final List<Boolean> direct = new ArrayList<>();
        private boolean payloadNext;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf buffer) {
                if (payloadNext) {
                    texts.add(buffer.toString(StandardCharsets.UTF_8));
                    direct.add(buffer.isDirect());
                }
                payloadNext = isDataFrameHeader(buffer);
            }
            ReferenceCountUtil.release(msg);
            promise.setSuccess();
        }

        /** The frame writer writes a DATA frame's 9-byte header, then its payload as a buffer of its own. */
        private static boolean isDataFrameHeader(ByteBuf buffer) {
            return buffer.readableBytes() == FRAME_HEADER_BYTES
                    && buffer.getByte(buffer.readerIndex() + 3) == DATA
                    && buffer.getMedium(buffer.readerIndex()) > 0;
        }
    }
}
