package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
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

/**
 * A small fixed HTTP/2 response body leaves whole, as one DATA frame in one buffer, when the stream may send it now,
 * and through Netty's flow controller when not; either way the windows the controller keeps stay exact.
 */
class Http2FixedBodyTest {
    private static final HttpResponse HELLO = HttpResponse.ofText("hello");
    /** Every stream's and the connection's window before a client's SETTINGS or WINDOW_UPDATE (RFC 9113, 6.9.2). */
    private static final int DEFAULT_WINDOW = 65_535;

    private final Queue<HttpResponse> answers = new ArrayDeque<>();
    private final DataFrames frames = new DataFrames();
    private final ServerRuntime runtime = new ServerRuntime(
            ServerOptions.ofDefault(),
            (ctx, request) -> CompletableFuture.completedFuture(answers.remove()),
            new RequestListeners(List.of()),
            null);
    private final Http2ServerConnection connection = Http2ServerConnection.create(runtime, null);
    private final EmbeddedChannel channel = new EmbeddedChannel(frames, connection);

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    @Test
    void writesASmallBodyAsOneBufferWithItsFrameHeaderAndEndsTheStream() throws Exception {
        answers.add(HELLO);
        answers.add(HELLO);

        channel.writeInbound(Http2RequestBytes.get());
        channel.writeInbound(Http2RequestBytes.get(3));

        assertThat(frames.payloads).containsExactly("hello", "hello");
        assertThat(frames.wholeInOneBuffer).containsExactly(true, true);
        assertThat(frames.endStream).containsExactly(true, true);
        assertThat(frames.direct).containsExactly(true, true);
        assertThat(connection.connection().numActiveStreams()).isZero();
    }

    @Test
    void debitsTheConnectionWindowByEveryBodyItWroteWhole() throws Exception {
        answers.add(HELLO);
        answers.add(HttpResponse.ofText("bye"));

        channel.writeInbound(Http2RequestBytes.get());
        channel.writeInbound(Http2RequestBytes.get(3));

        Http2RemoteFlowController flow = connection.encoder().flowController();
        assertThat(flow.windowSize(connection.connection().connectionStream())).isEqualTo(DEFAULT_WINDOW - 8);
    }

    @Test
    void leavesABodyLargerThanTheStreamWindowToTheFlowController() throws Exception {
        answers.add(HELLO);

        channel.writeInbound(Http2RequestBytes.getWithInitialWindow(3));
        assertThat(frames.payloads).containsExactly("hel");

        channel.writeInbound(Http2RequestBytes.windowUpdate(1, 2));
        assertThat(frames.payloads).containsExactly("hel", "lo");
        assertThat(frames.wholeInOneBuffer).containsExactly(false, false);
        assertThat(frames.endStream).containsExactly(false, true);
        Http2RemoteFlowController flow = connection.encoder().flowController();
        assertThat(flow.windowSize(connection.connection().connectionStream())).isEqualTo(DEFAULT_WINDOW - 5);
    }

    @Test
    void leavesABodyLargerThanTheSmallestFrameToTheFlowController() throws Exception {
        String large = "x".repeat(WholeDataFrame.MAX_BYTES + 1);
        answers.add(HttpResponse.ofText(large));

        channel.writeInbound(Http2RequestBytes.get());

        assertThat(String.join("", frames.payloads)).isEqualTo(large);
        assertThat(frames.wholeInOneBuffer).doesNotContain(true);
        assertThat(frames.endStream).last().isEqualTo(true);
    }

    /**
     * Reads the DATA frames in what the server writes, noting for each its payload's text, whether its frame header
     * and payload came in one buffer, whether it ended the stream and whether it was in direct memory; drops every
     * write.
     */
    private static final class DataFrames extends ChannelOutboundHandlerAdapter {
        private static final int FRAME_HEADER_BYTES = 9;
        private static final byte DATA = 0x0;
        private static final byte END_STREAM = 0x1;

        final List<String> payloads = new ArrayList<>();
        final List<Boolean> wholeInOneBuffer = new ArrayList<>();
        final List<Boolean> endStream = new ArrayList<>();
        final List<Boolean> direct = new ArrayList<>();
        /** The header of a DATA frame whose payload the next buffer is (Netty's frame writer writes it so). */
        private ByteBuf pendingHeader;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf buffer) {
                read(buffer);
            }
            ReferenceCountUtil.release(msg);
            promise.setSuccess();
        }

        private void read(ByteBuf buffer) {
            if (pendingHeader != null) {
                data(pendingHeader, buffer, false);
                pendingHeader.release();
                pendingHeader = null;
                return;
            }
            if (!isDataFrameHeader(buffer)) {
                return;
            }
            if (buffer.readableBytes() == FRAME_HEADER_BYTES) {
                pendingHeader = Unpooled.copiedBuffer(buffer);
            } else {
                data(
                        buffer,
                        buffer.slice(buffer.readerIndex() + FRAME_HEADER_BYTES, buffer.getMedium(buffer.readerIndex())),
                        true);
            }
        }

        private void data(ByteBuf header, ByteBuf payload, boolean oneBuffer) {
            payloads.add(payload.toString(StandardCharsets.UTF_8));
            wholeInOneBuffer.add(oneBuffer);
            endStream.add((header.getByte(header.readerIndex() + 4) & END_STREAM) != 0);
            direct.add(payload.isDirect());
        }

        /** A DATA frame's header alone, or the whole frame. */
        private static boolean isDataFrameHeader(ByteBuf buffer) {
            int readable = buffer.readableBytes();
            if (readable < FRAME_HEADER_BYTES || buffer.getByte(buffer.readerIndex() + 3) != DATA) {
                return false;
            }
            int length = buffer.getMedium(buffer.readerIndex());
            return length > 0 && (readable == FRAME_HEADER_BYTES || readable == FRAME_HEADER_BYTES + length);
        }
    }
}
