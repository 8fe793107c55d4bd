package io.parry.server.internal;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.RequestLimits;
import io.parry.server.ServerOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP/1.1 connection on a channel with no socket: request bytes in, response bytes out. */
class Http1ConnectionTest {
    private final Map<String, CompletableFuture<HttpResponse>> pending = new ConcurrentHashMap<>();
    /** The paths that reached the handler, in order. */
    private final List<String> handled = new ArrayList<>();
    /** The requests to {@code /seen}, in order. */
    private final List<HttpRequest> seen = new ArrayList<>();

    private final Handler routes = (ctx, request) -> switch (request.path()) {
        case "/echo" -> request.body()
                .aggregate(1024)
                .thenApply(
                        data -> HttpResponse.ofText("got " + new String(data.toByteArray(), StandardCharsets.UTF_8)));
        case "/fields" -> CompletableFuture.completedFuture(HttpResponse.ofText(
                request.headers().get("x-n") + " " + request.headers().get("host") + " " + request.target()));
        case "/seen" -> {
            seen.add(request);
            yield CompletableFuture.completedFuture(HttpResponse.ofText("seen"));
        }
        case "/throw" -> throw new IllegalStateException("secret detail");
        case "/broken-body" -> CompletableFuture.completedFuture(
                HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(Http1ConnectionTest::partThenFailure)));
        case "/later-a", "/later-b" -> pending.computeIfAbsent(request.path(), path -> new CompletableFuture<>());
        default -> CompletableFuture.completedFuture(HttpResponse.ofText("hello"));
    };
    private final Handler handler = routes.with((next, ctx, request) -> {
        handled.add(request.path());
        return next.handle(ctx, request);
    });
    private final EmbeddedChannel channel = new EmbeddedChannel(new ServerInitializer(
            new ServerRuntime(ServerOptions.ofDefault(), handler, new RequestListeners(List.of()), null)));

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    @Test
    void keepsTheConnectionOpenAfterAnHttp11Response() {
        send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");

        assertThat(written()).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\nhello");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void givesEachRequestItsOwnFieldsAndBodyWhenTheSameRequestLineComesAgain() {
        send("GET /fields HTTP/1.1\r\nHost: a\r\nX-N: 1\r\n\r\n");
        assertThat(written()).endsWith("\r\n\r\n1 a /fields");

        send("GET /fields HTTP/1.1\r\nHost: b\r\nX-N: 2\r\n\r\n");
        assertThat(written()).endsWith("\r\n\r\n2 b /fields");

        send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc");
        assertThat(written()).endsWith("\r\n\r\ngot abc");

        send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nxy");
        assertThat(written()).endsWith("\r\n\r\ngot xy");
    }

    @Test
    void givesTheSameRequestAgainWhenTheSameLineAndFieldsComeAgain() {
        String head = "GET /seen HTTP/1.1\r\nHost: a\r\nX-N: 1\r\n\r\n";
        send(head);
        send(head);
        send("GET /seen HTTP/1.1\r\nHost: a\r\nX-N: 2\r\n\r\n");
        written();

        assertThat(seen).hasSize(3);
        assertThat(seen.get(1)).isSameAs(seen.get(0));
        assertThat(seen.get(2).headers()).isEqualTo(HttpHeaders.of("Host", "a", "X-N", "2"));
        assertThat(seen.get(2).path()).isEqualTo("/seen");
    }

    @Test
    void refusesAControlCharacterInAFieldAfterTheSameFieldsWithoutIt() {
        send("GET / HTTP/1.1\r\nHost: a\r\nX-N: 1\r\n\r\n");
        assertThat(written()).startsWith("HTTP/1.1 200 OK\r\n");

        send("GET / HTTP/1.1\r\nHost: a\r\nX-N: 1\u007f\r\n\r\n");
        assertThat(written()).startsWith("HTTP/1.1 400 Bad Request\r\n");
    }

    @Test
    void takesTheAuthorityOfAnAbsoluteFormTargetAsTheHostEachTime() {
        for (int i = 0; i < 2; i++) {
            send("GET http://x.test/fields HTTP/1.1\r\nHost: a\r\nX-N: 1\r\n\r\n");
            assertThat(written()).endsWith("\r\n\r\n1 x.test http://x.test/fields");
        }

        send("GET /fields HTTP/1.1\r\nHost: a\r\nX-N: 2\r\n\r\n");
        assertThat(written()).endsWith("\r\n\r\n2 a /fields");
    }

    @Test
    void refusesAnInvalidHostAfterAValidOneOnTheSameConnection() {
        send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(written()).startsWith("HTTP/1.1 200 OK\r\n");

        send("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n");
        assertThat(written()).startsWith("HTTP/1.1 400 Bad Request\r\n");
    }

    @Test
    void closesAConnectionThatOpensAfterAStopBeganDraining() {
        ServerRuntime stopping =
                new ServerRuntime(ServerOptions.ofDefault(), handler, new RequestListeners(List.of()), null);
        stopping.startDraining();
        EmbeddedChannel late = new EmbeddedChannel(new ServerInitializer(stopping));
        try {
            late.runPendingTasks();

            assertThat(late.isOpen()).isFalse();
        } finally {
            late.finishAndReleaseAll();
        }
    }

    @Test
    void closesAfterAnHttp10RequestWithoutKeepAlive() {
        send("GET / HTTP/1.0\r\n\r\n");

        assertThat(written())
                .contains(" 200 OK\r\n")
                .contains("connection: close")
                .endsWith("hello");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void answersPipelinedRequestsInRequestOrderWhateverOrderTheyComplete() {
        send("GET /later-a HTTP/1.1\r\nHost: a\r\n\r\nGET /later-b HTTP/1.1\r\nHost: a\r\n\r\n");
        channel.runPendingTasks();

        pending.get("/later-b").complete(HttpResponse.ofText("second"));
        channel.runPendingTasks();
        assertThat(written()).isEmpty();

        pending.get("/later-a").complete(HttpResponse.ofText("first"));
        channel.runPendingTasks();
        String written = written();
        assertThat(written.indexOf("first")).isPositive().isLessThan(written.indexOf("second"));
    }

    @Test
    void deliversAChunkedRequestBodyToTheHandler() {
        send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");

        assertThat(written()).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\ngot abcde");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void answersAMalformedHeaderWith400AndClosesAfterIt() {
        send("GET / HTTP/1.1\r\nHost: a\r\nno colon here\r\n\r\n");

        assertThat(written()).startsWith("HTTP/1.1 400 Bad Request\r\n").contains("connection: close");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void answersAThrowingHandlerWith500ThatRevealsNothing() {
        send("GET /throw HTTP/1.1\r\nHost: a\r\n\r\n");

        String written = written();
        assertThat(written).startsWith("HTTP/1.1 500 Internal Server Error\r\n").doesNotContain("secret");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void answersHeadWithTheHeadAlone() {
        send("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n");

        assertThat(written())
                .startsWith("HTTP/1.1 200 OK\r\n")
                .contains("content-length: 5")
                .endsWith("\r\n\r\n");
    }

    @Test
    void closesTheConnectionWhenTheBodyFailsAfterTheHeadWasSent() {
        send("GET /broken-body HTTP/1.1\r\nHost: a\r\n\r\n");
        channel.runPendingTasks();

        assertThat(written())
                .startsWith("HTTP/1.1 200 OK\r\n")
                .contains("partial")
                .doesNotEndWith("0\r\n\r\n");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void sends100ContinueWhenTheHandlerFirstAsksForTheBody() {
        send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
        assertThat(written()).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");

        send("hello");

        assertThat(written())
                .startsWith("HTTP/1.1 200 OK\r\n")
                .doesNotContain("connection: close")
                .endsWith("got hello");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void keepsAnHttp10ConnectionThatAsksForKeepAlive() {
        send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");

        assertThat(written()).startsWith("HTTP/1.0 200 OK\r\n").contains("connection: keep-alive");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void closesAfterTheRequestThatAskedEvenWithAnotherPipelinedBehindIt() {
        send("GET /later-a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
        channel.runPendingTasks();

        pending.get("/later-a").complete(HttpResponse.ofText("first"));
        channel.runPendingTasks();

        String written = written();
        assertThat(written).contains("connection: close").endsWith("first").doesNotContain("hello");
        assertThat(channel.isOpen()).isFalse();
        // RFC 9112, section 9.6: requests after the one that closes are not processed.
        assertThat(handled).containsExactly("/later-a");
    }

    @Test
    void answersTheRequestsBeforeARefusedOneThenRefusesItAndCloses() {
        send("GET /later-a HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\n\r\n");
        channel.runPendingTasks();
        assertThat(written()).isEmpty();

        pending.get("/later-a").complete(HttpResponse.ofText("first"));
        channel.runPendingTasks();

        String written = written();
        assertThat(written).startsWith("HTTP/1.1 200 OK\r\n").contains("firstHTTP/1.1 400 Bad Request\r\n");
        assertThat(written.substring(0, written.indexOf("first"))).doesNotContain("connection: close");
        assertThat(written.substring(written.indexOf("first"))).contains("connection: close");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void answers408AndClosesWhenTheBodyDoesNotArriveInTime() {
        send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhel");

        connection().checkDeadlines(System.nanoTime() + Duration.ofMinutes(1).toNanos());
        channel.runPendingTasks();

        assertThat(written())
                .startsWith("HTTP/1.1 408 Request Timeout\r\n")
                .contains("connection: close")
                .contains("did not arrive in time");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void answers503ToALateHandlerDropsItsAnswerAndAbandonsThePipelinedRequestBehind() {
        send("GET /later-a HTTP/1.1\r\nHost: a\r\n\r\nGET /later-b HTTP/1.1\r\nHost: a\r\n\r\n");
        channel.runPendingTasks();

        connection().checkDeadlines(System.nanoTime() + Duration.ofMinutes(1).toNanos());
        channel.runPendingTasks();
        pending.get("/later-a").complete(HttpResponse.ofText("too late"));
        pending.get("/later-b").complete(HttpResponse.ofText("never"));
        channel.runPendingTasks();

        String written = written();
        assertThat(written)
                .startsWith("HTTP/1.1 503 Service Unavailable\r\n")
                .contains("connection: close")
                .doesNotContain("too late")
                .doesNotContain("never");
        channel.close();
    }

    @Test
    void answers413AndClosesWhenAChunkedBodyPassesTheLimit() {
        send("POST /later-a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
        String chunk = "a".repeat(16 * 1024);
        int chunks = (int) (RequestLimits.ofDefault().maxBodySize() / chunk.length()) + 1;
        for (int i = 0; i < chunks && channel.isOpen(); i++) {
            send(Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
        }

        assertThat(written()).startsWith("HTTP/1.1 413 Content Too Large\r\n").contains("connection: close");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void closesAfterTheResponseInFlightWhenTheServerStops() {
        send("GET /later-a HTTP/1.1\r\nHost: a\r\n\r\n");
        channel.runPendingTasks();

        connection().drain();
        assertThat(channel.isOpen()).isTrue();
        pending.get("/later-a").complete(HttpResponse.ofText("last"));
        channel.runPendingTasks();

        assertThat(written()).contains("connection: close").endsWith("last");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void answersRepeatedPipelinedEchoesEachWithItsOwnBodyInOrder() {
        String head = "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n";
        StringBuilder requests = new StringBuilder();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            requests.append(head).append(String.format("b%04d", i));
            expected.append(String.format("got b%04d|", i));
        }
        send(requests.toString());
        send(head + "he");
        send("llo");

        String written = written();
        StringBuilder bodies = new StringBuilder();
        for (String response : written.split("HTTP/1.1 ")) {
            if (!response.isEmpty()) {
                assertThat(response).startsWith("200 OK\r\n").doesNotContain("connection: close");
                bodies.append(response.substring(response.indexOf("\r\n\r\n") + 4))
                        .append('|');
            }
        }
        assertThat(bodies).hasToString(expected + "got hello|");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void givesEachRepeatedRequestWithoutABodyTheRequestOfTheFirst() {
        String head = "GET /seen HTTP/1.1\r\nHost: a\r\n\r\n";
        send(head + head + head);
        written();

        assertThat(seen).hasSize(3);
        assertThat(seen.get(2)).isSameAs(seen.get(0));
        assertThat(seen.get(1)).isSameAs(seen.get(0));
    }

    @Test
    void sends100ContinueToEachRepeatedRequestThatExpectsIt() {
        String head = "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n";
        for (String body : List.of("hello", "world")) {
            send(head);
            assertThat(written()).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
            send(body);
            assertThat(written()).startsWith("HTTP/1.1 200 OK\r\n").endsWith("got " + body);
        }
    }

    @Test
    void stopsReadingAtThePipelineLimitWithRepeatedRequests() {
        EmbeddedChannel limited = new EmbeddedChannel(new ServerInitializer(new ServerRuntime(
                ServerOptions.builder()
                        .limits(RequestLimits.builder().maxPipelinedRequests(2).build())
                        .build(),
                handler,
                new RequestListeners(List.of()),
                null)));
        try {
            String head = "GET /later-a HTTP/1.1\r\nHost: a\r\n\r\n";
            limited.writeInbound(Unpooled.copiedBuffer(head, US_ASCII));
            assertThat(limited.config().isAutoRead()).isTrue();

            limited.writeInbound(Unpooled.copiedBuffer(head, US_ASCII));

            assertThat(limited.config().isAutoRead()).isFalse();
            pending.get("/later-a").complete(HttpResponse.ofText("done"));
            limited.runPendingTasks();
            assertThat(limited.config().isAutoRead()).isTrue();
        } finally {
            limited.finishAndReleaseAll();
        }
    }

    @Test
    void answers503ToARepeatedRequestWhoseHandlerIsLate() {
        send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        send("GET /later-a HTTP/1.1\r\nHost: a\r\n\r\n");
        send("GET /later-a HTTP/1.1\r\nHost: a\r\n\r\n");
        channel.runPendingTasks();
        assertThat(handled).containsExactly("/", "/later-a", "/later-a");
        written();

        connection().checkDeadlines(System.nanoTime() + Duration.ofMinutes(1).toNanos());
        channel.runPendingTasks();

        assertThat(written()).startsWith("HTTP/1.1 503 Service Unavailable\r\n").contains("connection: close");
        channel.close();
    }

    @Test
    void answers408WhenAHeadAfterRepeatedRequestsIsTooSlow() {
        String head = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        send(head + head);
        assertThat(written()).endsWith("hello");

        send(head.substring(0, 10));
        connection().checkDeadlines(System.nanoTime() + Duration.ofMinutes(1).toNanos());
        channel.runPendingTasks();

        assertThat(written()).startsWith("HTTP/1.1 408 Request Timeout\r\n").contains("connection: close");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void closesAfterARepeatedRequestThatAsksToClose() {
        String head = "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
        send(head + head);

        assertThat(written()).contains("connection: close").endsWith("hello");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
        assertThat(handled).containsExactly("/");
    }

    @Test
    void parsesTheHeadAgainAfterTheConnectionSatIdleForASecond() {
        List<Object> heads = new ArrayList<>();
        channel.pipeline()
                .addBefore(
                        channel.pipeline().context(Http1Connection.class).name(),
                        "heads",
                        new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                if (msg instanceof io.netty.handler.codec.http.HttpRequest) {
                                    heads.add(msg);
                                }
                                ctx.fireChannelRead(msg);
                            }
                        });
        String head = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        send(head);
        send(head);
        connection().checkDeadlines(System.nanoTime() + Duration.ofMillis(500).toNanos());
        send(head);
        connection().checkDeadlines(System.nanoTime() + Duration.ofSeconds(2).toNanos());
        send(head);

        assertThat(written()).endsWith("hello");
        assertThat(heads).hasSize(4);
        assertThat(heads.get(1)).isSameAs(heads.get(0));
        assertThat(heads.get(2)).isSameAs(heads.get(0));
        assertThat(heads.get(3)).isNotSameAs(heads.get(0));
        assertThat(channel.isOpen()).isTrue();
    }

    private void send(String bytes) {
        channel.writeInbound(Unpooled.copiedBuffer(bytes, US_ASCII));
    }

    private Http1Connection connection() {
        return channel.pipeline().get(Http1Connection.class);
    }

    /** Everything written so far, as text; each message released. */
    private String written() {
        StringBuilder text = new StringBuilder();
        Object message;
        while ((message = channel.readOutbound()) != null) {
            ByteBuf buffer = (ByteBuf) message;
            try {
                text.append(buffer.toString(US_ASCII));
            } finally {
                buffer.release();
            }
        }
        return text.toString();
    }

    /** Sends one chunk, then fails: a body that breaks after its head went out. */
    private static void partThenFailure(Flow.Subscriber<? super HttpData> subscriber) {
        subscriber.onSubscribe(new Flow.Subscription() {
            private boolean sent;

            @Override
            public void request(long n) {
                if (!sent) {
                    sent = true;
                    subscriber.onNext(HttpData.wrap("partial".getBytes(US_ASCII)));
                    subscriber.onError(new IllegalStateException("upstream broke"));
                }
            }

            @Override
            public void cancel() {}
        });
    }
}
