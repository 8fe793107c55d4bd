package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.Handler;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ErrorResponseTest {
    private static final Handler HANDLER = (ctx, request) -> {
        switch (request.path()) {
            case "/throws":
                throw new IllegalStateException("secret internal detail");
            case "/fails-later":
                return CompletableFuture.supplyAsync(() -> {
                    throw new IllegalArgumentException("another secret");
                });
            case "/status":
                throw new HttpStatusException(HttpStatus.CONFLICT, "That todo was changed by someone else.");
            case "/null":
                return null;
            case "/null-response":
                return CompletableFuture.completedFuture(null);
            case "/breaks-mid-body":
                return HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(new BreaksAfterOneChunk()))
                        .toStage();
            case "/short-body":
                return HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(new BreaksAfterOneChunk(), 100))
                        .toStage();
            default:
                return HttpResponse.ofText("ok").toStage();
        }
    };

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(HANDLER);

    @Test
    void answersAnExceptionWith500ThatRevealsNothing() {
        RawResponse response = get("/throws");

        assertThat(response.status()).isEqualTo(500);
        assertThat(response.header("content-type")).isEqualTo("application/problem+json");
        assertThat(response.bodyText())
                .contains("\"status\":500", "\"title\":\"Internal Server Error\"", "\"requestId\":")
                .doesNotContain("secret", "Exception", "at io.");
    }

    @Test
    void answersAFailedStageWith500() {
        RawResponse response = get("/fails-later");

        assertThat(response.status()).isEqualTo(500);
        assertThat(response.bodyText()).doesNotContain("secret");
    }

    @Test
    void answersAStatusExceptionWithItsStatusAndDetail() {
        RawResponse response = get("/status");

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.bodyText())
                .contains("\"detail\":\"That todo was changed by someone else.\"", "\"instance\":\"/status\"");
    }

    @Test
    void answersANullStageOrResponseWith500() {
        assertThat(get("/null").status()).isEqualTo(500);
        assertThat(get("/null-response").status()).isEqualTo(500);
    }

    @Test
    void keepsTheConnectionAfterAnErrorResponse() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /throws HTTP/1.1\nHost: a\n\nGET /fine HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(500);
            assertThat(connection.readResponse().bodyText()).isEqualTo("ok");
        }
    }

    @Test
    void closesTheConnectionWhenABodyFailsAfterTheHeaders() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /breaks-mid-body HTTP/1.1\nHost: a\n\n");
            String wire = connection.readUntilClose();

            assertThat(wire).startsWith("HTTP/1.1 200 OK").contains("first");
            // The chunked body never gets its last chunk, so it cannot look complete.
            assertThat(wire).doesNotContain("\r\n0\r\n\r\n");
        }
    }

    @Test
    void closesTheConnectionWhenABodyIsShorterThanItsLength() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /short-body HTTP/1.1\nHost: a\n\n");
            String wire = connection.readUntilClose();

            assertThat(wire).contains("content-length: 100");
            assertThat(wire.substring(wire.indexOf("\r\n\r\n") + 4)).isEqualTo("first");
        }
    }

    private static RawResponse get(String path) {
        try (RawConnection connection = server.connect()) {
            connection.send("GET " + path + " HTTP/1.1\nHost: a\n\n");
            return connection.readResponse();
        }
    }

    /** Publishes one chunk, then fails. */
    private static final class BreaksAfterOneChunk implements Flow.Publisher<HttpData> {
        @Override
        public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                private int requests;

                @Override
                public void request(long n) {
                    if (requests++ == 0) {
                        subscriber.onNext(HttpData.ofUtf8("first"));
                    } else {
                        subscriber.onError(new IllegalStateException("database went away"));
                    }
                }

                @Override
                public void cancel() {}
            });
        }
    }
}
