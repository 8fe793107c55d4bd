package io.parry.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.parry.proxy.WebSocketProxyOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WebSocketRelayTest {
    private final AtomicInteger ended = new AtomicInteger();
    private final WebSocketRelay relay = new WebSocketRelay(
            WebSocketProxyOptions.builder().maxFrameSize(16).maxMessageSize(32).build(), ended::incrementAndGet);
    private final EmbeddedChannel client = new EmbeddedChannel(relay.downstream);
    private final EmbeddedChannel upstream = new EmbeddedChannel(relay.upstream);
    /** A relay with its codecs installed, on channels of their own, once {@link #startWithCodecs()} ran. */
    private final WebSocketRelay codecs = new WebSocketRelay(WebSocketProxyOptions.ofDefault(), () -> {});

    private final EmbeddedChannel codecClient = new EmbeddedChannel();
    private final EmbeddedChannel codecUpstream = new EmbeddedChannel();

    @AfterEach
    void finish() {
        client.finishAndReleaseAll();
        upstream.finishAndReleaseAll();
        codecClient.finishAndReleaseAll();
        codecUpstream.finishAndReleaseAll();
    }

    private void startWithCodecs() {
        codecs.installDownstream(codecClient.pipeline());
        codecs.installUpstream(codecUpstream.pipeline());
        codecs.start();
    }

    private static CloseWebSocketFrame closeFrom(EmbeddedChannel channel) {
        channel.runPendingTasks();
        Object out;
        while ((out = channel.readOutbound()) != null && !(out instanceof CloseWebSocketFrame)) {
            ReferenceCountUtil.release(out);
        }
        assertThat(out).as("a close frame").isInstanceOf(CloseWebSocketFrame.class);
        return (CloseWebSocketFrame) out;
    }

    private static int codeOf(CloseWebSocketFrame frame) {
        int code = frame.statusCode();
        frame.release();
        return code;
    }

    @Test
    void forwardsFramesBothWaysWithTheirFinAndRsvBits() {
        relay.start();
        client.writeInbound(new TextWebSocketFrame(false, 4, Unpooled.copiedBuffer(new byte[] {'h', 'i'})));
        upstream.writeInbound(new PingWebSocketFrame(Unpooled.copiedBuffer(new byte[] {7})));

        WebSocketFrame up = upstream.readOutbound();
        WebSocketFrame down = client.readOutbound();

        assertThat(up).isInstanceOf(TextWebSocketFrame.class);
        assertThat(up.isFinalFragment()).isFalse();
        assertThat(up.rsv()).isEqualTo(4);
        assertThat(down).isInstanceOf(PingWebSocketFrame.class);
        up.release();
        down.release();
        assertThat(client.config().isAutoRead()).isTrue();
    }

    @Test
    void closesBothConnectionsOnceEachSideSentAndReceivedAClose() {
        relay.start();
        client.writeInbound(new CloseWebSocketFrame(1000, "bye"));
        assertThat(codeOf(closeFrom(upstream))).isEqualTo(1000);

        upstream.writeInbound(new CloseWebSocketFrame(1000, ""));

        assertThat(codeOf(closeFrom(client))).isEqualTo(1000);
        client.runPendingTasks();
        upstream.runPendingTasks();
        assertThat(client.isOpen()).isFalse();
        assertThat(upstream.isOpen()).isFalse();
        assertThat(ended).hasValue(1);
    }

    @Test
    void closesTheUpstreamWithGoingAwayWhenTheClientsConnectionEnds() {
        relay.start();
        client.close();

        assertThat(codeOf(closeFrom(upstream))).isEqualTo(1001);
        assertThat(upstream.isOpen()).isFalse();
        assertThat(ended).hasValue(1);
    }

    @Test
    void closesTheClientWithGoingAwayWhenTheUpstreamsConnectionBreaks() {
        relay.start();
        upstream.close();

        CloseWebSocketFrame close = closeFrom(client);
        assertThat(close.reasonText()).isEqualTo("the upstream went away");
        assertThat(codeOf(close)).isEqualTo(1001);
        assertThat(client.isOpen()).isFalse();
    }

    @Test
    void closesTheSenderWithMessageTooBigAndThePeerWithGoingAwayWhenFragmentsExceedTheLimit() {
        relay.start();
        client.writeInbound(new BinaryWebSocketFrame(false, 0, Unpooled.wrappedBuffer(new byte[16])));
        client.writeInbound(new ContinuationWebSocketFrame(false, 0, Unpooled.wrappedBuffer(new byte[16])));
        client.writeInbound(new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(new byte[1])));

        assertThat(codeOf(closeFrom(client))).isEqualTo(1009);
        assertThat(codeOf(closeFrom(upstream))).isEqualTo(1001);
    }

    @Test
    void stopsReadingTheClientWhileTheUpstreamIsNotWritable() {
        upstream.config().setWriteBufferWaterMark(new WriteBufferWaterMark(4, 8));
        relay.start();

        client.pipeline().fireChannelRead(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[16])));
        assertThat(client.config().isAutoRead()).isFalse();

        client.pipeline().fireChannelReadComplete();
        upstream.runPendingTasks();
        assertThat(upstream.isWritable()).isTrue();
        assertThat(client.config().isAutoRead()).isTrue();
        ReferenceCountUtil.release(upstream.readOutbound());
    }

    @Test
    void closesBothSidesWithGoingAwayWhenNoFrameMovedForTheIdleTimeout() {
        WebSocketRelay idle = new WebSocketRelay(
                WebSocketProxyOptions.builder()
                        .idleTimeout(Duration.ofSeconds(30))
                        .build(),
                () -> {});
        EmbeddedChannel a = new EmbeddedChannel(idle.downstream);
        EmbeddedChannel b = new EmbeddedChannel(idle.upstream);
        a.freezeTime();
        idle.start();
        a.advanceTimeBy(20, TimeUnit.SECONDS);
        a.runScheduledPendingTasks();
        b.pipeline().fireChannelRead(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[4])));
        b.pipeline().fireChannelReadComplete();
        ReferenceCountUtil.release(a.readOutbound());

        a.advanceTimeBy(29, TimeUnit.SECONDS);
        a.runScheduledPendingTasks();
        assertThat((Object) a.readOutbound()).as("moved 29 s ago").isNull();
        a.advanceTimeBy(1, TimeUnit.SECONDS);
        a.runScheduledPendingTasks();

        assertThat(codeOf(closeFrom(a))).isEqualTo(1001);
        assertThat(codeOf(closeFrom(b))).isEqualTo(1001);
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void closesBothSidesWhenTheCloseIsNotAnsweredInTime() {
        WebSocketRelay quick = new WebSocketRelay(
                WebSocketProxyOptions.builder()
                        .closeTimeout(Duration.ofSeconds(5))
                        .build(),
                () -> {});
        EmbeddedChannel a = new EmbeddedChannel(quick.downstream);
        EmbeddedChannel b = new EmbeddedChannel(quick.upstream);
        a.freezeTime();
        quick.goAway("shutting down");
        a.advanceTimeBy(4, TimeUnit.SECONDS);
        a.runScheduledPendingTasks();
        assertThat(a.isOpen()).isTrue();

        a.advanceTimeBy(1, TimeUnit.SECONDS);
        a.runScheduledPendingTasks();
        a.runPendingTasks();
        b.runPendingTasks();

        assertThat(a.isOpen()).isFalse();
        assertThat(b.isOpen()).isFalse();
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void writesRelayedFramesAsTheBytesReadAndEncodesOnlyItsCloseFrames() {
        startWithCodecs();
        EmbeddedChannel server = new EmbeddedChannel(new WebSocket13FrameEncoder(false));
        server.writeOutbound(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})));
        Object read = server.readOutbound();

        codecUpstream.writeInbound(read);
        Object relayed = codecClient.readOutbound();
        codecs.goAway("stopping");

        assertThat(relayed).isSameAs(read);
        ReferenceCountUtil.release(relayed);
        assertThat(closeCodeIn(codecClient, false)).isEqualTo(1001);
        assertThat(closeCodeIn(codecUpstream, true)).isEqualTo(1001);
        server.finishAndReleaseAll();
    }

    /** The code of the close frame a channel with the relay's codecs wrote, masked towards an upstream. */
    private static int closeCodeIn(EmbeddedChannel channel, boolean masked) {
        EmbeddedChannel decoder = new EmbeddedChannel(new WebSocket08FrameDecoder(
                WebSocketDecoderConfig.newBuilder().expectMaskedFrames(masked).build()));
        Object bytes;
        while ((bytes = channel.readOutbound()) != null) {
            assertThat(bytes).isInstanceOf(ByteBuf.class);
            decoder.writeInbound(bytes);
        }
        CloseWebSocketFrame close = decoder.readInbound();
        decoder.finishAndReleaseAll();
        return codeOf(close);
    }

    /**
     * A permessage-deflate text frame is compressed bytes, not UTF-8: the relay passes it with RSV1 set and
     * its payload untouched, leaving inflating and validating to the endpoints (RFC 7692, section 6).
     */
    @Test
    void passesACompressedTextFrameThroughTheCodecsUnchanged() {
        startWithCodecs();
        byte[] compressed = {(byte) 0xf2, 0x48, (byte) 0xcd, (byte) 0xc9, (byte) 0xc9, 0x07, 0x00};
        EmbeddedChannel browser = new EmbeddedChannel(new WebSocket13FrameEncoder(true));
        browser.writeOutbound(new TextWebSocketFrame(true, 4, Unpooled.wrappedBuffer(compressed)));

        codecClient.writeInbound(browser.<Object>readOutbound());
        EmbeddedChannel server = new EmbeddedChannel(new WebSocket08FrameDecoder(
                WebSocketDecoderConfig.newBuilder().allowExtensions(true).build()));
        Object bytes;
        while ((bytes = codecUpstream.readOutbound()) != null) {
            server.writeInbound(bytes);
        }
        TextWebSocketFrame received = server.readInbound();

        assertThat(received.rsv()).isEqualTo(4);
        assertThat(ByteBufUtil.getBytes(received.content())).containsExactly(compressed);
        received.release();
        browser.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }
}
