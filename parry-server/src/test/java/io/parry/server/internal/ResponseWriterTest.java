package io.parry.server.internal;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.ServerOptions;
import io.parry.transport.spi.BodyFlow;
import io.parry.transport.spi.InboundBody;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The messages a response becomes on the channel, as a proxied response's body arrives whole or not. */
class ResponseWriterTest {
    private static final String REQUEST = "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
    private static final BodyFlow NO_FLOW = new BodyFlow() {
        @Override
        public void pause() {}

        @Override
        public void resume() {}

        @Override
        public void demanded() {}
    };

    private final List<ByteBuf> created = new ArrayList<>();
    private HttpResponse response;
    private final EmbeddedChannel channel = new EmbeddedChannel(new ServerInitializer(new ServerRuntime(
            ServerOptions.ofDefault(),
            (ctx, request) -> CompletableFuture.completedFuture(
                    response != null ? response : HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), request.body())),
            new RequestListeners(List.of()),
            null)));

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
        for (ByteBuf buffer : created) {
            assertThat(buffer.refCnt()).as("every buffer released exactly once").isZero();
        }
    }

    @Test
    void writesABodyThatArrivedInFullWithItsHeadAsOneMessage() {
        InboundBody body = received(5, "hel", "lo");
        response = HttpResponse.of(HttpStatus.OK, HttpHeaders.of("content-type", "text/plain"), body);

        channel.writeInbound(Unpooled.copiedBuffer(REQUEST, US_ASCII));

        assertOneMessageSaysHello("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n");
    }

    @Test
    void writesAWholeBodyOfUnknownLengthWithItsLengthInOneMessage() {
        InboundBody body = received(-1, "hello");
        response = HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), body);

        channel.writeInbound(Unpooled.copiedBuffer(REQUEST, US_ASCII));

        assertOneMessageSaysHello("HTTP/1.1 200 OK\r\n");
    }

    @Test
    void keepsAnHttp10ConnectionOpenAfterAWholeBodyOfUnknownLength() {
        InboundBody body = received(-1, "hello");
        response = HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), body);

        channel.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", US_ASCII));

        assertOneMessageSaysHello("HTTP/1.0 200 OK\r\n");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void writesAWholeBodyPastNettysEncoder() {
        List<Object> throughEncoder = recordWritesThroughNettysEncoder();
        InboundBody body = received(5, "hello");
        response = HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), body);

        channel.writeInbound(Unpooled.copiedBuffer(REQUEST, US_ASCII));

        assertOneMessageSaysHello("HTTP/1.1 200 OK\r\n");
        assertThat(throughEncoder).isEmpty();
    }

    @Test
    void echoesARequestBodyThatArrivesWithItsHeadPastNettysEncoder() {
        List<Object> throughEncoder = recordWritesThroughNettysEncoder();

        channel.writeInbound(Unpooled.copiedBuffer(
                "POST /echo HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\n\r\nhello", US_ASCII));

        assertOneMessageSaysHello("HTTP/1.1 200 OK\r\n");
        assertThat(throughEncoder).isEmpty();
    }

    @Test
    void echoesALargeBodyThatArrivesWithItsHeadAsOneMessageWithoutCopyingIt() {
        String large = "x".repeat(6_000);

        channel.writeInbound(Unpooled.copiedBuffer(
                "POST /echo HTTP/1.1\r\nHost: example.com\r\nContent-Length: 6000\r\n\r\n" + large, US_ASCII));

        ByteBuf message = channel.readOutbound();
        try {
            assertThat(message).isInstanceOf(CompositeByteBuf.class);
            assertThat(message.toString(US_ASCII))
                    .startsWith("HTTP/1.1 200 OK\r\n")
                    .contains("\r\ncontent-length: 6000\r\n")
                    .endsWith("\r\n\r\n" + large);
        } finally {
            message.release();
        }
        assertThat(outbound()).isEmpty();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void streamsABodyThatIsStillArriving() {
        InboundBody body = new InboundBody(channel.eventLoop(), NO_FLOW, 5);
        body.onChunk(buffer("hel"));
        response = HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), body);

        channel.writeInbound(Unpooled.copiedBuffer(REQUEST, US_ASCII));
        List<String> beforeTheEnd = outbound();
        body.onChunk(buffer("lo"));
        body.onEnd(HttpHeaders.empty());

        assertThat(beforeTheEnd).hasSize(2);
        assertThat(beforeTheEnd.get(0)).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\n");
        assertThat(beforeTheEnd.get(1)).isEqualTo("hel");
        assertThat(String.join("", outbound())).isEqualTo("lo");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void echoesARequestBodyThatArrivesWithItsHeadAsOneMessage() {
        channel.writeInbound(Unpooled.copiedBuffer(
                "POST /echo HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\n\r\nhello", US_ASCII));

        assertOneMessageSaysHello("HTTP/1.1 200 OK\r\n");
    }

    @Test
    void echoesARequestBodyThatArrivesInPiecesAsItArrives() {
        channel.writeInbound(Unpooled.copiedBuffer(
                "POST /echo HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\n\r\n", US_ASCII));
        assertThat(outbound()).as("the head waits for the body's first chunk").isEmpty();

        channel.writeInbound(Unpooled.copiedBuffer("hel", US_ASCII));
        List<String> first = outbound();
        channel.writeInbound(Unpooled.copiedBuffer("lo", US_ASCII));

        assertThat(first).hasSize(2);
        assertThat(first.get(0)).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\n");
        assertThat(first.get(1)).isEqualTo("hel");
        assertThat(outbound()).containsExactly("lo");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void writesTheChunkThatCompletesTheDeclaredLengthAsTheLastMessage() {
        InboundBody body = new InboundBody(channel.eventLoop(), NO_FLOW, 5);
        body.onChunk(buffer("hel"));
        response = HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), body);

        channel.writeInbound(Unpooled.copiedBuffer(REQUEST, US_ASCII));
        outbound();
        body.onChunk(buffer("lo"));
        List<String> last = outbound();
        body.onEnd(HttpHeaders.empty());

        assertThat(last).containsExactly("lo");
        assertThat(outbound()).as("nothing after the last chunk").isEmpty();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void closesAfterTheHeadWhenAWholeBodyIsNotItsDeclaredLength() {
        InboundBody body = received(10, "hello");
        response = HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), body);

        channel.writeInbound(Unpooled.copiedBuffer(REQUEST, US_ASCII));

        String written = String.join("", outbound());
        assertThat(written).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\ncontent-length: 10\r\n\r\n");
        assertThat(channel.isOpen()).isFalse();
    }

    /** The messages written from here on through Netty's response encoder, instead of past it. */
    private List<Object> recordWritesThroughNettysEncoder() {
        List<Object> messages = new ArrayList<>();
        channel.pipeline().addAfter(ServerInitializer.ENCODER, "recorder", new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                messages.add(msg.getClass());
                ctx.write(msg, promise);
            }
        });
        return messages;
    }

    /** A body that has arrived in full, in these chunks. */
    private InboundBody received(long declared, String... chunks) {
        InboundBody body = new InboundBody(channel.eventLoop(), NO_FLOW, declared);
        for (String chunk : chunks) {
            body.onChunk(buffer(chunk));
        }
        body.onEnd(HttpHeaders.empty());
        return body;
    }

    private ByteBuf buffer(String text) {
        ByteBuf buffer = Unpooled.copiedBuffer(text, US_ASCII);
        created.add(buffer);
        return buffer;
    }

    /** The response went out whole in one message, its body "hello", and the connection stays open. */
    private void assertOneMessageSaysHello(String start) {
        List<String> messages = outbound();
        assertThat(messages).hasSize(1);
        assertThat(messages.get(0))
                .startsWith(start)
                .contains("\r\ncontent-length: 5\r\n")
                .endsWith("\r\n\r\nhello");
        assertThat(channel.isOpen()).isTrue();
    }

    /** The messages written so far, empty ones too, as text; each released. */
    private List<String> outbound() {
        List<String> messages = new ArrayList<>();
        ByteBuf message;
        while ((message = channel.readOutbound()) != null) {
            try {
                messages.add(message.toString(US_ASCII));
            } finally {
                message.release();
            }
        }
        return messages;
    }
}
