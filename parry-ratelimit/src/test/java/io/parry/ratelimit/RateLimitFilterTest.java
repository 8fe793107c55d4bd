package io.parry.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.AddressBlocks;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.routing.Router;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(NettyLeakExtension.class)
class RateLimitFilterTest {
    private static final AtomicInteger allowed = new AtomicInteger();
    private static final AtomicInteger limited = new AtomicInteger();
    private static final List<String> failed = new CopyOnWriteArrayList<>();
    private static final RateLimitObserver COUNTS = new RateLimitObserver() {
        @Override
        public void allowed(String name) {
            allowed.incrementAndGet();
        }

        @Override
        public void limited(String name) {
            limited.incrementAndGet();
        }

        @Override
        public void failed(String name) {
            failed.add(name);
        }
    };

    private static final Handler HELLO = Handler.sync((ctx, request) -> HttpResponse.ofText("hello"));

    @RegisterExtension
    static final ServerExtension perClient =
            ServerExtension.of(HELLO.with(RateLimitFilter.builder(LocalRateLimiter.of(RateLimit.builder()
                            .rate(1)
                            .period(Duration.ofMinutes(1))
                            .burst(3)
                            .build()))
                    .name("hello")
                    .observer(COUNTS)
                    .build()));

    @RegisterExtension
    static final ServerExtension perApiKey =
            ServerExtension.of(HELLO.with(RateLimitFilter.builder(LocalRateLimiter.of(RateLimit.builder()
                            .rate(1)
                            .period(Duration.ofMinutes(1))
                            .burst(1)
                            .build()))
                    .key(RateLimitKey.header("X-Api-Key"))
                    .build()));

    @RegisterExtension
    static final ServerExtension behindProxy =
            ServerExtension.of(HELLO.with(RateLimitFilter.builder(LocalRateLimiter.of(RateLimit.builder()
                            .rate(1)
                            .period(Duration.ofMinutes(1))
                            .burst(1)
                            .build()))
                    .key(RateLimitKey.clientAddress(AddressBlocks.parse("trustedProxies", List.of("127.0.0.1"))))
                    .build()));

    @RegisterExtension
    static final ServerExtension unavailable = ServerExtension.of(HELLO.with(RateLimitFilter.builder(new RateLimiter() {
                @Override
                public RateLimit limit() {
                    return RateLimit.perSecond(1);
                }

                @Override
                public CompletionStage<RateLimitDecision> acquire(RequestContext ctx, String key) {
                    return CompletableFuture.failedFuture(
                            new RateLimiterUnavailableException(new IllegalStateException("store down")));
                }
            })
            .observer(COUNTS)
            .build()));

    /** One global limit for the whole server, around the router; a route of its own limit inside it. */
    @RegisterExtension
    static final ServerExtension globalAndPerRoute = ServerExtension.of(Router.builder()
            .get("/a", HELLO)
            .get(
                    "/b",
                    HELLO,
                    route -> route.filter(RateLimitFilter.builder(LocalRateLimiter.of(RateLimit.builder()
                                    .rate(1)
                                    .period(Duration.ofMinutes(1))
                                    .burst(1)
                                    .build()))
                            .name("b")
                            .build()))
            .build()
            .with(RateLimitFilter.builder(LocalRateLimiter.of(RateLimit.builder()
                            .rate(1)
                            .period(Duration.ofMinutes(1))
                            .burst(3)
                            .build()))
                    .name("global")
                    .key(RateLimitKey.route())
                    .build()));

    private static java.net.http.HttpResponse<String> get(ServerExtension server, String... headers) throws Exception {
        return request(server, "/", headers);
    }

    private static java.net.http.HttpResponse<String> request(ServerExtension server, String path, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.uri(path));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return server.client().send(request.build(), BodyHandlers.ofString());
    }

    @Test
    void answersTooManyRequestsAsAProblemWithRetryAfterOnceTheBurstIsSpent() throws Exception {
        List<java.net.http.HttpResponse<String>> responses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            responses.add(get(perClient));
        }
        assertThat(responses.subList(0, 3))
                .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
        assertThat(responses.get(0).headers().firstValue("RateLimit-Policy")).hasValue("\"hello\";q=3;w=180");
        assertThat(responses.get(0).headers().firstValue("RateLimit")).hasValue("\"hello\";r=2;t=60");
        assertThat(responses.get(2).headers().firstValue("RateLimit")).hasValue("\"hello\";r=0;t=180");
        java.net.http.HttpResponse<String> refused = responses.get(3);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("60");
        assertThat(refused.headers().firstValue("RateLimit")).hasValue("\"hello\";r=0;t=180");
        assertThat(refused.body()).contains("\"status\":429");
        assertThat(allowed.get()).isGreaterThanOrEqualTo(3);
        assertThat(limited.get()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void keepsABucketPerHeaderValue() throws Exception {
        assertThat(get(perApiKey, "X-Api-Key", "one").statusCode()).isEqualTo(200);
        assertThat(get(perApiKey, "X-Api-Key", "one").statusCode()).isEqualTo(429);
        assertThat(get(perApiKey, "X-Api-Key", "two").statusCode()).isEqualTo(200);
        assertThat(get(perApiKey).statusCode()).isEqualTo(200);
        assertThat(get(perApiKey).statusCode()).isEqualTo(429);
    }

    @Test
    void keepsABucketPerClientATrustedProxyNames() throws Exception {
        assertThat(get(behindProxy, "X-Forwarded-For", "203.0.113.1").statusCode())
                .isEqualTo(200);
        assertThat(get(behindProxy, "X-Forwarded-For", "198.51.100.7, 203.0.113.1")
                        .statusCode())
                .isEqualTo(429);
        assertThat(get(behindProxy, "X-Forwarded-For", "203.0.113.2").statusCode())
                .isEqualTo(200);
    }

    @Test
    void putsClientsThatAreNotAddressesInOneBucketSoMadeUpEntriesCannotEscapeTheLimit() throws Exception {
        assertThat(get(behindProxy, "X-Forwarded-For", "a.example").statusCode())
                .isEqualTo(200);
        assertThat(get(behindProxy, "X-Forwarded-For", "b.example").statusCode())
                .isEqualTo(429);
    }

    @Test
    void appliesAGlobalLimitAcrossRoutesAndARoutesOwnInsideIt() throws Exception {
        assertThat(request(globalAndPerRoute, "/b").statusCode()).isEqualTo(200);
        java.net.http.HttpResponse<String> routeLimited = request(globalAndPerRoute, "/b");
        assertThat(routeLimited.statusCode()).isEqualTo(429);
        assertThat(routeLimited.headers().allValues("RateLimit"))
                .containsExactly("\"b\";r=0;t=60", "\"global\";r=1;t=120");
        assertThat(routeLimited.headers().allValues("RateLimit-Policy"))
                .containsExactly("\"b\";q=1;w=60", "\"global\";q=3;w=180");
        assertThat(request(globalAndPerRoute, "/a").statusCode()).isEqualTo(200);
        java.net.http.HttpResponse<String> globallyLimited = request(globalAndPerRoute, "/a");
        assertThat(globallyLimited.statusCode()).isEqualTo(429);
        assertThat(globallyLimited.headers().allValues("RateLimit")).containsExactly("\"global\";r=0;t=180");
    }

    @Test
    void answersServiceUnavailableWhenTheLimiterCannotDecideAndRefuses() throws Exception {
        java.net.http.HttpResponse<String> response = get(unavailable);
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(response.body()).contains("rate limiter is unavailable").doesNotContain("store down");
        assertThat(failed).isNotEmpty().containsOnly("default");
    }
}
