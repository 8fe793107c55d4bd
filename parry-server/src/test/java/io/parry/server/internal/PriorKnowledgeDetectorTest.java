package io.parry.server.internal;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.Rejection;
import io.parry.server.ServerOptions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cleartext port's first bytes choose the framing: HTTP/2 by prior knowledge, else HTTP/1.1. */
class PriorKnowledgeDetectorTest {
    private static final String PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

    private final Handler handler =
            (ctx, request) -> HttpResponse.ofText("hello").toStage();
    private final ServerRuntime runtime =
            new ServerRuntime(ServerOptions.ofDefault(), handler, new RequestListeners(List.of()), null);
    private final EmbeddedChannel channel = new EmbeddedChannel(new ServerInitializer(runtime));

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    @Test
    void leavesAnHttp11ConnectionToTheHttp11Framing() {
        send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");

        assertThat(output()).startsWith("HTTP/1.1 200 OK").endsWith("hello");
        assertThat(channel.pipeline().get(PriorKnowledgeDetector.class)).isNull();
        assertThat(channel.pipeline().get(Http1Connection.class)).isNotNull();
    }

    @Test
    void switchesToHttp2WhenThePrefaceArrivesInPieces() {
        send(PREFACE.substring(0, 5));
        assertThat(channel.pipeline().get(PriorKnowledgeDetector.class)).isNotNull();

        send(PREFACE.substring(5));

        assertThat(channel.pipeline().get(Http2ServerConnection.class)).isNotNull();
        assertThat(channel.pipeline().get(Http1Connection.class)).isNull();
        ByteBuf settings = channel.readOutbound();
        assertThat(settings.getByte(3)).as("frame type").isEqualTo((byte) 0x4);
        settings.release();
    }

    /** RFC 9113, section 3.4: a first line that is no HTTP at all is an invalid preface, not a bad request. */
    @Test
    void closesAConnectionWhoseFirstLineHasNoHttpVersion() {
        send("INVALID CONNECTION PREFACE\r\n\r\n");

        assertThat(channel.isActive()).isFalse();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(runtime.rejections.count(Rejection.HTTP2_PROTOCOL_ERROR)).isEqualTo(1);
    }

    @Test
    void leavesAMalformedHttp11RequestLineToTheHttp11FramingToAnswer() {
        send("GET / http/1.1\r\nHost: a\r\n\r\n");

        assertThat(output()).contains(" 400 Bad Request");
    }

    private void send(String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, US_ASCII));
    }

    private String output() {
        StringBuilder text = new StringBuilder();
        ByteBuf buffer;
        while ((buffer = channel.readOutbound()) != null) {
            text.append(buffer.toString(US_ASCII));
            buffer.release();
        }
        return text.toString();
    }
}
