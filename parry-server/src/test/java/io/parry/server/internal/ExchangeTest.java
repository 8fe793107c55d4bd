package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.EventExecutor;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.RequestLimits;
import io.parry.server.RequestLog;
import io.parry.server.ServerOptions;
import io.parry.server.ServerTimeouts;
import io.parry.server.TlsInfo;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The exchange on a framing that only records what it is asked: the state machine without a connection. */
class ExchangeTest {
    private final EmbeddedChannel loop = new EmbeddedChannel();
    private final List<RequestLog> logs = new ArrayList<>();
    private final List<Exchange> ready = new ArrayList<>();
    private final CompletableFuture<HttpResponse> answer = new CompletableFuture<>();
    private final Handler handler = (ctx, request) -> answer;
    private final ServerRuntime runtime = new ServerRuntime(
            ServerOptions.builder()
                    .limits(RequestLimits.builder().maxBodySize(10).build())
                    .timeouts(ServerTimeouts.builder()
                            .request(Duration.ofSeconds(1))
                            .build())
                    .build(),
            handler,
            new RequestListeners(List.of(logs::add)),
            null);
    private final Exchange exchange = new Exchange(new RecordingFraming(), 1, "HTTP/1.1", 1_000);

    @AfterEach
    void closeLoop() {
        loop.finishAndReleaseAll();
    }

    @Test
    void handsTheHandlersAnswerToTheFraming() {
        accept();

        exchange.dispatch();
        assertThat(exchange.state()).isEqualTo(ExchangeState.HANDLING);
        answer.complete(HttpResponse.ofText("hello"));

        assertThat(exchange.state()).isEqualTo(ExchangeState.RESPONDED);
        assertThat(ready).containsExactly(exchange);
    }

    @Test
    void turnsAFailedHandlerInto500() {
        accept();
        exchange.dispatch();

        answer.completeExceptionally(new IllegalStateException("broken"));

        assertThat(exchange.startWriting().status()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
    }

    @Test
    void dropsAnAnswerThatCameAfterTheRequestTimedOut() {
        accept();
        exchange.dispatch();

        assertThat(exchange.responseOverdue(1_000 + Duration.ofSeconds(1).toNanos()))
                .isTrue();
        exchange.timedOut();
        answer.complete(HttpResponse.ofText("too late"));

        assertThat(exchange.startWriting().status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(ready).containsExactly(exchange);
        assertThat(exchange.clientGone()).isCompleted();
    }

    @Test
    void isNotOverdueBeforeItsTimeOrOnceItHasItsResponse() {
        accept();
        assertThat(exchange.responseOverdue(1_000 + Duration.ofSeconds(1).toNanos() - 1))
                .isFalse();

        exchange.respond(HttpResponse.ofText("hello"));

        assertThat(exchange.responseOverdue(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void logsOnceWhenTheLastMessageLeft() {
        accept();
        exchange.respond(HttpResponse.ofText("hello"));
        exchange.startWriting();
        exchange.bodyBytesSent(5);

        assertThat(exchange.lastHandedOver()).as("wants to hear when it left").isTrue();
        assertThat(logs).isEmpty();
        exchange.end(true);

        assertThat(exchange.state()).isEqualTo(ExchangeState.DONE);
        assertThat(logs).singleElement().satisfies(log -> {
            assertThat(log.status()).isEqualTo(200);
            assertThat(log.completed()).isTrue();
            assertThat(log.bytesOut()).isEqualTo(5);
        });
        assertThatIllegalStateException().isThrownBy(() -> exchange.end(true));
        assertThat(logs).hasSize(1);
    }

    @Test
    void logsAnAbandonedExchangeWithoutTheStatusItNeverSent() {
        accept();
        exchange.respond(HttpResponse.ofText("hello"));

        exchange.abandon();

        assertThat(exchange.state()).isEqualTo(ExchangeState.ABANDONED);
        assertThat(logs).singleElement().satisfies(log -> {
            assertThat(log.status()).isZero();
            assertThat(log.completed()).isFalse();
        });
    }

    @Test
    void tellsWhoeverWaitsThatTheClientIsGone() {
        accept();
        CompletionStage<Void> gone = exchange.clientGone();
        assertThat(gone.toCompletableFuture()).isNotDone();

        exchange.abandon();

        assertThat(gone.toCompletableFuture()).isCompleted();
        assertThat(exchange.clientGone().toCompletableFuture()).isCompleted();
    }

    @Test
    void rejectsATransitionItsStateDoesNotAllow() {
        accept();

        assertThatIllegalStateException()
                .isThrownBy(exchange::startWriting)
                .withMessageContaining("HANDLING -> WRITING");
        assertThatIllegalStateException().isThrownBy(exchange::lastHandedOver);
        assertThatIllegalStateException().isThrownBy(exchange::handling);
        exchange.abandon();
        assertThatIllegalStateException().isThrownBy(exchange::abandon);
        assertThat(exchange.respond(HttpResponse.ofText("late"))).isFalse();
        assertThat(exchange.state()).isEqualTo(ExchangeState.ABANDONED);
    }

    @Test
    void countsBodyBytesAgainstTheBodyLimit() {
        accept();

        assertThat(exchange.bodyReceived(6)).isTrue();
        assertThat(exchange.bodyReceived(4)).isTrue();
        assertThat(exchange.bodyReceived(1)).isFalse();
        assertThat(exchange.bodyBytesReceived()).isEqualTo(11);
    }

    private void accept() {
        exchange.requestRead(HttpRequest.builder(HttpMethod.GET, "/").build(), null);
        exchange.handling();
    }

    private final class RecordingFraming implements ExchangeFraming {
        @Override
        public TlsInfo tls() {
            return null;
        }

        @Override
        public ServerRuntime runtime() {
            return runtime;
        }

        @Override
        public EventExecutor executor() {
            return loop.eventLoop();
        }

        @Override
        public String connectionId() {
            return "c";
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 40000);
        }

        @Override
        public InetSocketAddress localAddress() {
            return new InetSocketAddress("127.0.0.1", 8080);
        }

        @Override
        public void pauseRequestBody() {}

        @Override
        public void resumeRequestBody() {}

        @Override
        public void bodyDemanded(Exchange exchange) {}

        @Override
        public void responseReady(Exchange exchange) {
            ready.add(exchange);
        }
    }
}
