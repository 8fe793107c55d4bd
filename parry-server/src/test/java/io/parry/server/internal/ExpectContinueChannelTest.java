package io.parry.server.internal;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.ServerOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When a streamed response's head leaves for a request that expects 100 Continue. */
class ExpectContinueChannelTest {
    private static final String EXPECTING =
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n";

    private EmbeddedChannel channel;

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void sendsContinueThenTheHeadOfAResponseThatIsTheRequestBody() {
        start((ctx, request) ->
                CompletableFuture.completedFuture(HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), request.body())));

        write(EXPECTING);
        assertThat(outbound()).startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n");

        write("hello");
        assertThat(outbound()).isEqualTo("hello");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void writesTheHeldHeadWithTheFirstChunkOfAResponseThatIgnoresTheBodyThenCloses() {
        Flow.Publisher<HttpData> other = subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            private boolean done;

            @Override
            public void request(long n) {
                if (!done) {
                    done = true;
                    subscriber.onNext(HttpData.ofUtf8("other"));
                    subscriber.onComplete();
                }
            }

            @Override
            public void cancel() {
                done = true;
            }
        });
        start((ctx, request) -> CompletableFuture.completedFuture(
                HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(other))));

        write(EXPECTING);

        assertThat(outbound())
                .startsWith("HTTP/1.1 200 OK\r\n")
                .contains("connection: close\r\n")
                .endsWith("5\r\nother\r\n0\r\n\r\n")
                .doesNotContain("100 Continue");
        assertThat(channel.isOpen()).isFalse();
    }

    private void start(Handler handler) {
        channel = new EmbeddedChannel(new ServerInitializer(
                new ServerRuntime(ServerOptions.ofDefault(), handler, new RequestListeners(List.of()), null)));
    }

    private void write(String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, US_ASCII));
    }

    private String outbound() {
        StringBuilder written = new StringBuilder();
        ByteBuf message;
        while ((message = channel.readOutbound()) != null) {
            written.append(message.toString(US_ASCII));
            message.release();
        }
        return written.toString();
    }
}
