package io.parry.micrometer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.parry.http.HttpMethod;
import io.parry.server.RequestLog;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RequestTimersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RequestTimers timers = new RequestTimers(registry, Tags.of("server", "api"), false);

    @Test
    void recordsRepeatedRequestsOnOneTimer() {
        timers.record(log(HttpMethod.GET, "/todos/{id}", 200, true, 1_000));
        timers.record(log(HttpMethod.GET, "/todos/{id}", 204, true, 3_000));

        Timer timer = registry.get("parry.server.requests")
                .tags("server", "api", "route", "/todos/{id}", "method", "GET", "status", "2xx")
                .timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(4_000);
        assertThat(registry.getMeters()).hasSize(1);
    }

    @Test
    void tagsWhatIsUnknownWithoutInventingValues() {
        timers.record(log(null, null, 400, true, 1));
        timers.record(log(HttpMethod.of("PURGE"), "/cache", 999, true, 1));
        timers.record(log(HttpMethod.POST, "/upload", 200, false, 1));

        assertThat(registry.get("parry.server.requests")
                        .tags("route", "UNMATCHED", "method", "OTHER", "status", "4xx")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.server.requests")
                        .tags("route", "/cache", "method", "OTHER", "status", "UNKNOWN")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.server.requests")
                        .tags("route", "/upload", "method", "POST", "status", "CLIENT_CLOSED")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void publishesAPercentileHistogramWhenAsked() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new RequestTimers(prometheus, Tags.empty(), true).record(log(HttpMethod.GET, "/a", 200, true, 1_000_000));
        new RequestTimers(registry, Tags.empty(), false).record(log(HttpMethod.GET, "/b", 200, true, 1_000_000));

        assertThat(prometheus.scrape()).contains("parry_server_requests_seconds_bucket{method=\"GET\",route=\"/a\"");
        assertThat(registry.get("parry.server.requests")
                        .tag("route", "/b")
                        .timer()
                        .takeSnapshot()
                        .histogramCounts())
                .isEmpty();
    }

    private static RequestLog log(HttpMethod method, String route, int status, boolean completed, long nanos) {
        return RequestLog.builder()
                .method(method)
                .route(route)
                .status(status)
                .completed(completed)
                .durationNanos(nanos)
                .build();
    }
}
