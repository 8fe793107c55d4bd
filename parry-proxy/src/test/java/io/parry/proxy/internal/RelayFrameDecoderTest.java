package io.parry.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Frames cut from the bytes that came, re-keyed from a client, checked against RFC 6455, section 5. */
class RelayFrameDecoderTest {
    private final EmbeddedChannel browser = new EmbeddedChannel(new WebSocket13FrameEncoder(true));
    private final EmbeddedChannel server = new EmbeddedChannel(new WebSocket13FrameEncoder(false));
    private final EmbeddedChannel fromClient =
            new EmbeddedChannel(new WebSocket13FrameEncoder(false), new RelayFrameDecoder(true, 1024));
    private final EmbeddedChannel fromUpstream =
            new EmbeddedChannel(new WebSocket13FrameEncoder(true), new RelayFrameDecoder(false, 1024));

    @AfterEach
    void release() {
        browser.finishAndReleaseAll();
        server.finishAndReleaseAll();
        fromClient.finishAndReleaseAll();
        fromUpstream.finishAndReleaseAll();
    }

    @Test
    void givesAClientsFrameAMaskKeyOfItsOwnAndKeepsThePayload() {
        byte[] text = "a client's message of some length".getBytes(StandardCharsets.UTF_8);
        ByteBuf sent = encoded(browser, new TextWebSocketFrame(Unpooled.wrappedBuffer(text)));
        int clientKey = sent.getInt(2);

        fromClient.writeInbound(sent);
        ByteBuf relayed = fromClient.readInbound();

        assertThat(relayed.getInt(relayed.readerIndex() + 2)).isNotEqualTo(clientKey);
        TextWebSocketFrame received = decoded(true, relayed);
        assertThat(ByteBufUtil.getBytes(received.content())).containsExactly(text);
        received.release();
    }

    @Test
    void passesAReadHoldingOneWholeFrameOnAsTheReadBufferItself() {
        ByteBuf sent = encoded(browser, new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[128])));

        fromClient.writeInbound(sent);
        ByteBuf relayed = fromClient.readInbound();

        assertThat(relayed).isSameAs(sent);
        BinaryWebSocketFrame received = decoded(true, relayed);
        assertThat(ByteBufUtil.getBytes(received.content())).containsExactly(new byte[128]);
        received.release();
    }

    @Test
    void remasksClientFramesOfEveryLengthWhetherTheyShareAReadOrSpanTwo() {
        int[] lengths = {0, 1, 7, 8, 13, 125, 126, 300};
        ByteBuf reads = Unpooled.buffer();
        for (int length : lengths) {
            reads.writeBytes(encoded(browser, new BinaryWebSocketFrame(Unpooled.wrappedBuffer(payload(length)))));
        }

        fromClient.writeInbound(reads.readRetainedSlice(reads.readableBytes() / 2));
        fromClient.writeInbound(reads);

        for (int length : lengths) {
            BinaryWebSocketFrame received = decoded(true, fromClient.readInbound());
            assertThat(ByteBufUtil.getBytes(received.content())).containsExactly(payload(length));
            received.release();
        }
    }

    @Test
    void passesAnUpstreamsFramesAsTheyCameSeveralInOneRead() {
        ByteBuf first = encoded(server, new BinaryWebSocketFrame(false, 0, Unpooled.wrappedBuffer(new byte[] {1, 2})));
        ByteBuf last = encoded(server, new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(new byte[] {3})));
        byte[] expectedFirst = ByteBufUtil.getBytes(first);
        byte[] expectedLast = ByteBufUtil.getBytes(last);

        fromUpstream.writeInbound(Unpooled.wrappedBuffer(first, last));

        ByteBuf one = fromUpstream.readInbound();
        ByteBuf two = fromUpstream.readInbound();
        assertThat(ByteBufUtil.getBytes(one)).containsExactly(expectedFirst);
        assertThat(ByteBufUtil.getBytes(two)).containsExactly(expectedLast);
        one.release();
        two.release();
    }

    @Test
    void decodesACloseFrameForTheRelaysHandshake() {
        fromClient.writeInbound(encoded(browser, new CloseWebSocketFrame(1000, "bye")));

        CloseWebSocketFrame close = fromClient.readInbound();
        assertThat(close.statusCode()).isEqualTo(1000);
        assertThat(close.reasonText()).isEqualTo("bye");
        close.release();
    }

    @Test
    void closesWithProtocolErrorOnAnUnmaskedClientFrame() {
        assertThatThrownBy(() -> fromClient.writeInbound(
                        encoded(server, new TextWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {'a'})))))
                .isInstanceOf(CorruptedWebSocketFrameException.class);

        assertThat(closeCodeSentBy(fromClient, false)).isEqualTo(1002);
        assertThat(fromClient.isActive()).isFalse();
    }

    @Test
    void closesWithProtocolErrorOnAContinuationOutsideAMessage() {
        assertThatThrownBy(() -> fromUpstream.writeInbound(encoded(
                        server, new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(new byte[] {1})))))
                .isInstanceOf(CorruptedWebSocketFrameException.class);

        assertThat(closeCodeSentBy(fromUpstream, true)).isEqualTo(1002);
    }

    @Test
    void closesWithMessageTooBigOnAFrameOverTheLimitBeforeItsPayloadArrives() {
        ByteBuf header = Unpooled.buffer().writeByte(0x82).writeByte(126).writeShort(2048);

        assertThatThrownBy(() -> fromUpstream.writeInbound(header))
                .isInstanceOf(CorruptedWebSocketFrameException.class);

        assertThat(closeCodeSentBy(fromUpstream, true)).isEqualTo(1009);
    }

    @Test
    void closesWithProtocolErrorOnACloseFrameWithAnInvalidCode() {
        // A close frame with code 999, masked with a zero key.
        ByteBuf close =
                Unpooled.buffer().writeByte(0x88).writeByte(0x82).writeInt(0).writeShort(999);

        assertThatThrownBy(() -> fromClient.writeInbound(close)).isInstanceOf(CorruptedWebSocketFrameException.class);

        assertThat(closeCodeSentBy(fromClient, false)).isEqualTo(1002);
    }

    private static byte[] payload(int length) {
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (i * 31 + 7);
        }
        return payload;
    }

    private static ByteBuf encoded(EmbeddedChannel encoder, WebSocketFrame frame) {
        encoder.writeOutbound(frame);
        ByteBuf whole = Unpooled.buffer();
        ByteBuf part;
        while ((part = encoder.readOutbound()) != null) {
            whole.writeBytes(part);
            part.release();
        }
        return whole;
    }

    private static <T extends WebSocketFrame> T decoded(boolean masked, ByteBuf bytes) {
        EmbeddedChannel decoder = new EmbeddedChannel(new WebSocket08FrameDecoder(
                WebSocketDecoderConfig.newBuilder().expectMaskedFrames(masked).build()));
        decoder.writeInbound(bytes);
        T frame = decoder.readInbound();
        decoder.finishAndReleaseAll();
        return frame;
    }

    /** The code of the close frame the decoder sent back, masked towards an upstream. */
    private static int closeCodeSentBy(EmbeddedChannel channel, boolean masked) {
        CloseWebSocketFrame close = decoded(masked, channel.readOutbound());
        int code = close.statusCode();
        close.release();
        return code;
    }
}
