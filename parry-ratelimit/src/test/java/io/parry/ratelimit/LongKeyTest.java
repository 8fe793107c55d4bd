package io.parry.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.testing.HandlerTester;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** Keys a client chooses may be kilobytes long; buckets are not. */
class LongKeyTest {
    private final List<String> asked = new ArrayList<>();
    private final LocalRateLimiter local = LocalRateLimiter.of(RateLimit.perSecond(1));
    private final RateLimiter recording = new RateLimiter() {
        @Override
        public RateLimit limit() {
            return local.limit();
        }

        @Override
        public CompletionStage<RateLimitDecision> acquire(RequestContext ctx, String key) {
            asked.add(key);
            return CompletableFuture.completedFuture(local.tryAcquire(key));
        }
    };

    @Test
    void givesALimiterAShortNameForALongKeyStillOneBucketPerValue() {
        Handler limited = Handler.sync((ctx, request) -> HttpResponse.ofText("hello"))
                .with(RateLimitFilter.builder(recording)
                        .key(RateLimitKey.header("X-Api-Key"))
                        .build());
        String first = "a".repeat(8000);
        String second = "a".repeat(7999) + "b";
        try (HandlerTester tester = HandlerTester.of(limited)) {
            assertThat(tester.send(withKey(first)).status()).isEqualTo(200);
            assertThat(tester.send(withKey(first)).status()).isEqualTo(429);
            assertThat(tester.send(withKey(second)).status()).isEqualTo(200);
            assertThat(tester.send(withKey("short")).status()).isEqualTo(200);
        }

        assertThat(asked).allSatisfy(key -> assertThat(key.length()).isLessThanOrEqualTo(64));
        assertThat(asked.get(0)).isEqualTo(asked.get(1)).isNotEqualTo(asked.get(2));
        assertThat(asked.get(3)).isEqualTo("short");
    }

    private static HttpRequest withKey(String key) {
        return HttpRequest.builder(HttpMethod.GET, "/").header("X-Api-Key", key).build();
    }
}
