package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.CallTimeoutException;
import io.parry.client.ConnectionClosedException;
import io.parry.client.Endpoint;
import io.parry.client.InvalidResponseException;
import io.parry.client.RequestBodyException;
import io.parry.client.ResponseTimeoutException;
import io.parry.client.UpstreamConnectException;
import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.proxy.ProxyObserver.ClientEnding;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ClientEndingTest {
    private static final Endpoint ENDPOINT = Endpoint.of("127.0.0.1", 9000);

    @Test
    void blamesTheClientForEveryRequestBodyItBroke() {
        assertThat(ProxyFailures.clientEnding(body(new HttpStatusException(HttpStatus.BAD_REQUEST))))
                .isEqualTo(ClientEnding.MALFORMED_BODY);
        assertThat(ProxyFailures.clientEnding(body(new ContentTooLargeException(10))))
                .isEqualTo(ClientEnding.BODY_TOO_LARGE);
        assertThat(ProxyFailures.clientEnding(body(new HttpStatusException(HttpStatus.REQUEST_TIMEOUT))))
                .isEqualTo(ClientEnding.BODY_TIMEOUT);
        assertThat(ProxyFailures.clientEnding(body(new ClosedChannelException())))
                .isEqualTo(ClientEnding.CLOSED_MID_BODY);
        assertThat(ProxyFailures.clientEnding(new CompletionException(body(new IllegalStateException("length")))))
                .isEqualTo(ClientEnding.BODY_FAILED);
    }

    @Test
    void blamesTheClientForAResponseItStoppedReading() {
        assertThat(ProxyFailures.clientEnding(ObservedBody.CANCELLED)).isEqualTo(ClientEnding.STOPPED_READING);
        assertThat(ProxyFailures.clientEnding(new CallTimeoutException(ENDPOINT, Duration.ofSeconds(1), true, true)))
                .isEqualTo(ClientEnding.STOPPED_READING);
    }

    @Test
    void blamesTheUpstreamForEverythingElse() {
        assertThat(ProxyFailures.clientEnding(new CallTimeoutException(ENDPOINT, Duration.ofSeconds(1), true)))
                .isNull();
        assertThat(ProxyFailures.clientEnding(new ResponseTimeoutException(ENDPOINT, Duration.ofSeconds(1), true)))
                .isNull();
        assertThat(ProxyFailures.clientEnding(new ConnectionClosedException("reset", true, new IOException())))
                .isNull();
        assertThat(ProxyFailures.clientEnding(new InvalidResponseException("garbage", null)))
                .isNull();
        assertThat(ProxyFailures.clientEnding(new UpstreamConnectException(ENDPOINT, new IOException("refused"))))
                .isNull();
    }

    @Test
    void answersTheClientWithTheServersRefusalNeverWithA5xx() {
        HttpStatusException refused = new ContentTooLargeException(10);

        assertThat(ProxyFailures.ofClient(body(refused))).isSameAs(refused);
        assertThat(ProxyFailures.ofClient(body(new ClosedChannelException())))
                .isInstanceOfSatisfying(HttpStatusException.class, status -> assertThat(status.status())
                        .isEqualTo(HttpStatus.BAD_REQUEST));
    }

    private static RequestBodyException body(Throwable cause) {
        return new RequestBodyException("the request body failed: " + cause, cause);
    }
}
