package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
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
 * A small fixed HTTP/2 response leaves whole, its HEADERS and DATA frames in one buffer, when the stream may send its
 * body now, and through Netty's encoder and flow controller when not; either way the windows the controller keeps
 * stay exact and the client reads the same frames.
 */
class Http2FixedBodyTest {
    private static final HttpResponse HELLO = HttpResponse.ofText("hello");
    /** Every stream's and the connection's window before a client's SETTINGS or WINDOW_UPDATE (RFC 9113, 6.9.2). */
    private static final int DEFAULT_WINDOW = 65_535;

    private final Queue<HttpResponse> answers = new ArrayDeque<>();
    private final Wire wire = new Wire();
    private final ServerRuntime runtime = new ServerRuntime(
            ServerOptions.ofDefault(),
            (ctx, request) -> CompletableFuture.completedFuture(answers.remove()),
            new RequestListeners(List.of()),
            null);
    private final Http2ServerConnection connection = Http2ServerConnection.create(runtime, null);
    private final EmbeddedChannel channel = new EmbeddedChannel(wire, connection);

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
        wire.bytes.release();
    }

    @Test
    void writesASmallResponseInOneBufferAndEndsTheStream() throws Exception {
        answers.add(HELLO);
        answers.add(HELLO);

        channel.writeInbound(Http2RequestBytes.get());
        int writes = wire.writes;
        channel.writeInbound(Http2RequestBytes.get(3));

        assertThat(wire.writes - writes).isEqualTo(1);
        assertThat(wire.direct).isTrue();
        Frames frames = Frames.read(wire.bytes);
        assertThat(frames.statuses).containsExactly("200", "200");
        assertThat(frames.payloads).containsExactly("hello", "hello");
        assertThat(frames.dataEndedStream).containsExactly(true, true);
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
    void splitsAHeaderBlockLargerThanAFrameIntoContinuationFrames() throws Exception {
        String large = "v".repeat(20_000);
        answers.add(HttpResponse.of(HttpStatus.OK, HttpHeaders.of("x-large", large), HELLO.body()));
        answers.add(HELLO);

        channel.writeInbound(Http2RequestBytes.get());
        channel.writeInbound(Http2RequestBytes.get(3));

        Frames frames = Frames.read(wire.bytes);
        assertThat(frames.largeValues).containsExactly(large);
        assertThat(frames.statuses).containsExactly("200", "200");
        assertThat(frames.payloads).containsExactly("hello", "hello");
    }

    @Test
    void leavesABodyLargerThanTheStreamWindowToTheFlowController() throws Exception {
        answers.add(HELLO);

        channel.writeInbound(Http2RequestBytes.getWithInitialWindow(3));
        channel.writeInbound(Http2RequestBytes.windowUpdate(1, 2));

        Frames frames = Frames.read(wire.bytes);
        assertThat(frames.payloads).containsExactly("hel", "lo");
        assertThat(frames.dataEndedStream).containsExactly(false, true);
        Http2RemoteFlowController flow = connection.encoder().flowController();
        assertThat(flow.windowSize(connection.connection().connectionStream())).isEqualTo(DEFAULT_WINDOW - 5);
    }

    @Test
    void leavesABodyLargerThanTheSmallestFrameToTheFlowController() throws Exception {
        String large = "x".repeat(WholeResponseFrames.MAX_BODY_BYTES + 1);
        answers.add(HttpResponse.ofText(large));

        channel.writeInbound(Http2RequestBytes.get());

        Frames frames = Frames.read(wire.bytes);
        assertThat(String.join("", frames.payloads)).isEqualTo(large);
        assertThat(frames.dataEndedStream).last().isEqualTo(true);
    }

    /** Keeps a copy of every byte the server writes, and counts its writes; drops the writes. */
    private static final class Wire extends ChannelOutboundHandlerAdapter {
        final ByteBuf bytes = Unpooled.buffer();
        int writes;
        boolean direct = true;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf buffer) {
                writes++;
                direct &= buffer.isDirect();
                bytes.writeBytes(buffer);
                buffer.release();
            }
            promise.setSuccess();
        }
    }

    /** The frames the server wrote, read as a client's Netty reads them. */
    private static final class Frames extends Http2FrameAdapter {
        final List<String> statuses = new ArrayList<>();
        final List<String> largeValues = new ArrayList<>();
        final List<String> payloads = new ArrayList<>();
        final List<Boolean> dataEndedStream = new ArrayList<>();

        static Frames read(ByteBuf bytes) throws Http2Exception {
            Frames frames = new Frames();
            EmbeddedChannel client = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
            try (DefaultHttp2FrameReader reader =
                    new DefaultHttp2FrameReader(new DefaultHttp2HeadersDecoder(true, 100_000))) {
                while (bytes.isReadable()) {
                    reader.readFrame(client.pipeline().firstContext(), bytes, frames);
                }
            } finally {
                client.finishAndReleaseAll();
            }
            return frames;
        }

        @Override
        public void onHeadersRead(
                ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endOfStream) {
            statuses.add(headers.status().toString());
            CharSequence large = headers.get("x-large");
            if (large != null) {
                largeValues.add(large.toString());
            }
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
            payloads.add(data.toString(StandardCharsets.UTF_8));
            dataEndedStream.add(endOfStream);
            return data.readableBytes() + padding;
        }
    }
}
