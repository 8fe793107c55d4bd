package io.parry.server.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A session's frames in and out on an {@link EmbeddedChannel}, without its codecs or a socket. */
class WebSocketConnectionTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();

    WebSocketConnectionTest() {
        SessionSetup setup = new SessionSetup(
                WebSocketOptions.ofDefault(), new WebSocketCounters(), null, false, null, "ws-1", null, session -> {});
        WebSocketConnection connection = new WebSocketConnection(setup, channel);
        channel.pipeline().addLast(connection);
        connection.open();
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void stopsReadingWhileTheClientTakesNoWritesAndAnswersOnlyTheLastPingOnceItDoes() {
        clientTakesWrites(false);

        channel.writeInbound(ping(1), ping(2), ping(3));
        boolean readingWhileUnwritable = channel.config().isAutoRead();
        Object pongWhileUnwritable = channel.readOutbound();
        clientTakesWrites(true);

        assertThat(readingWhileUnwritable).isFalse();
        assertThat(pongWhileUnwritable).isNull();
        assertThat(channel.config().isAutoRead()).isTrue();
        PongWebSocketFrame pong = channel.readOutbound();
        assertThat(pong.content().readByte()).isEqualTo((byte) 3);
        pong.release();
        assertThat(channel.<Object>readOutbound()).isNull();
    }

    /** Turns the connection's writability off or on, as its outbound buffer crossing a water mark does. */
    private void clientTakesWrites(boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
        channel.runPendingTasks(); // The change is told to the pipeline from a task.
    }

    private static PingWebSocketFrame ping(int data) {
        return new PingWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {(byte) data}));
    }
}
