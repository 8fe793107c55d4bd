package io.parry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.parry.http.HttpHeaders;
import io.parry.testing.NettyLeakExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * When a client WebSocket whose reader asks for nothing asks its socket for more: frames in, {@code read()} requests
 * counted at the head of the pipeline.
 */
@ExtendWith(NettyLeakExtension.class)
class ClientWebSocketTest {
    private final Reads reads = new Reads();
    private final ClientWebSocket socket = new ClientWebSocket(HttpHeaders.empty(), TimeUnit.SECONDS.toNanos(5));
    private final EmbeddedChannel channel = new EmbeddedChannel(reads, socket);

    ClientWebSocketTest() {
        channel.config().setAutoRead(false); // As the upgraded connection's: reads only when asked for.
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void readsOnWithoutDemandWhileTheMessagesHeldAreUnderTheBound() {
        channel.writeInbound(binary(1000));
        int before = reads.count;

        channel.writeInbound(new PingWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {7})));

        assertThat(reads.count).isGreaterThan(before);
        PongWebSocketFrame pong = channel.readOutbound();
        assertThat(pong.content().readByte()).isEqualTo((byte) 7);
        pong.release();
    }

    @Test
    void stopsReadingOnceTheMessagesHeldReachTheBound() {
        int before = reads.count;
        channel.writeInbound(binary(ClientWebSocket.MAX_HELD_BYTES - 1));
        int belowBound = reads.count;
        channel.writeInbound(binary(1));
        int atBound = reads.count;

        channel.writeInbound(binary(1));

        assertThat(belowBound).isEqualTo(before + 1);
        assertThat(atBound).isEqualTo(belowBound);
        assertThat(reads.count).isEqualTo(atBound);
    }

    @Test
    void readsOnForThePeersAnswerOnceItSentItsCloseDroppingWhatNobodyAskedFor() {
        channel.writeInbound(binary(ClientWebSocket.MAX_HELD_BYTES));
        int held = reads.count;

        socket.close(1000, "");
        channel.runPendingTasks();
        channel.<CloseWebSocketFrame>readOutbound().release();
        int closing = reads.count;
        channel.writeInbound(binary(1000), new CloseWebSocketFrame(1000, ""));
        channel.runPendingTasks();

        assertThat(closing).isEqualTo(held + 1);
        assertThat(socket.closed().toCompletableFuture())
                .isCompletedWithValue(new io.parry.client.WebSocketClose(1000, ""));
    }

    @Test
    void stopsReadingWhileTheConnectionTakesNoWritesAndAnswersOnlyTheLastPingOnceItDoes() {
        connectionTakesWrites(false);
        int before = reads.count;

        channel.writeInbound(ping(1), ping(2), ping(3));
        int whileUnwritable = reads.count;
        assertThat(channel.<Object>readOutbound())
                .as("a pong written while unwritable")
                .isNull();
        connectionTakesWrites(true);

        assertThat(whileUnwritable).isEqualTo(before);
        assertThat(reads.count).isEqualTo(before + 1);
        PongWebSocketFrame pong = channel.readOutbound();
        assertThat(pong.content().readByte()).isEqualTo((byte) 3);
        pong.release();
        assertThat(channel.<Object>readOutbound()).isNull();
    }

    @Test
    void answersThePeersCloseWhileUnwritableButNotItsPingsThenReadsNoMore() {
        connectionTakesWrites(false);
        int before = reads.count;

        channel.writeInbound(ping(1), new CloseWebSocketFrame(1000, ""));

        CloseWebSocketFrame answer = channel.readOutbound();
        assertThat(answer.statusCode()).isEqualTo(1000);
        answer.release();
        assertThat(channel.<Object>readOutbound()).as("a pong after the close").isNull();
        assertThat(reads.count).isEqualTo(before);
    }

    /** Turns the connection's writability off or on, as its outbound buffer crossing a water mark does. */
    private void connectionTakesWrites(boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
        channel.runPendingTasks(); // The change is told to the pipeline from a task.
    }

    private static PingWebSocketFrame ping(int data) {
        return new PingWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {(byte) data}));
    }

    private static BinaryWebSocketFrame binary(int size) {
        return new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[size]));
    }

    /** Counts the reads asked of the channel. */
    private static final class Reads extends ChannelOutboundHandlerAdapter {
        int count;

        @Override
        public void read(ChannelHandlerContext ctx) {
            count++;
            ctx.read();
        }
    }
}
