package io.parry.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.AddressBlocks;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(NettyLeakExtension.class)
class AuthFailureLimitTest {
    /** Credentials checked, as a signature verification or a password hash would be. */
    private static final AtomicInteger checks = new AtomicInteger();

    /** Lets {@code Authorization: good} pass and answers 401 to anything else, counting each check. */
    private static final Filter AUTHENTICATION = (next, ctx, request) -> {
        checks.incrementAndGet();
        if ("good".equals(request.headers().get("Authorization"))) {
            return next.handle(ctx, request);
        }
        return HttpResponse.of(HttpStatus.UNAUTHORIZED).toStage();
    };

    /** The handler behind authentication: 401 when asked to, as an upstream may answer. */
    private static final Handler HANDLER =
            Handler.sync((ctx, request) -> request.headers().contains("X-Upstream-Refuses")
                    ? HttpResponse.of(HttpStatus.UNAUTHORIZED)
                    : HttpResponse.ofText("hello"));

    private static final AuthFailureLimit FAILURES = AuthFailureLimit.builder(RateLimit.builder()
                    .rate(1)
                    .period(Duration.ofMinutes(1))
                    .burst(3)
                    .build())
            .key(RateLimitKey.clientAddress(AddressBlocks.parse("trustedProxies", List.of("127.0.0.1"))))
            .build();

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(HANDLER.with(FAILURES.guard(AUTHENTICATION)));

    private static java.net.http.HttpResponse<String> get(String client, String authorization, String... more)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.uri("/"))
                .header("X-Forwarded-For", client)
                .header("Authorization", authorization);
        if (more.length > 0) {
            request.headers(more);
        }
        return server.client().send(request.build(), BodyHandlers.ofString());
    }

    @Test
    void refusesAFloodingClientBeforeItsCredentialsAreCheckedAndNotOtherClients() throws Exception {
        int before = checks.get();
        for (int i = 0; i < 3; i++) {
            assertThat(get("203.0.113.1", "forged-" + i).statusCode()).isEqualTo(401);
        }
        for (int i = 0; i < 10; i++) {
            java.net.http.HttpResponse<String> refused = get("203.0.113.1", "forged-more-" + i);
            assertThat(refused.statusCode()).isEqualTo(429);
            // The first token comes back a minute after it was taken, less the time the calls since took.
            assertThat(refused.headers().firstValue("Retry-After"))
                    .hasValueSatisfying(
                            seconds -> assertThat(Integer.parseInt(seconds)).isBetween(50, 60));
            assertThat(refused.body()).contains("Too many failed authentication attempts");
        }
        assertThat(get("203.0.113.1", "good").statusCode()).isEqualTo(429);
        assertThat(checks.get() - before).isEqualTo(3);

        assertThat(get("203.0.113.2", "forged").statusCode()).isEqualTo(401);
        assertThat(get("203.0.113.2", "good").statusCode()).isEqualTo(200);
        assertThat(checks.get() - before).isEqualTo(5);
    }

    @Test
    void neverLimitsAClientWhoseCredentialsPass() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(get("203.0.113.3", "good").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void doesNotCountAnUnauthorizedAnswerFromBehindAuthentication() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(get("203.0.113.4", "good", "X-Upstream-Refuses", "yes").statusCode())
                    .isEqualTo(401);
        }
        assertThat(get("203.0.113.4", "good").statusCode()).isEqualTo(200);
    }

    @Test
    void refusesANonPositiveBoundOnKeys() {
        assertThatThrownBy(() -> AuthFailureLimit.builder(RateLimit.perSecond(1))
                        .maxKeys(0)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxKeys: 0 (expected: > 0)");
    }
}
