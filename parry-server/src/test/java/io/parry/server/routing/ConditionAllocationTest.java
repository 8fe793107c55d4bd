package io.parry.server.routing;

import static io.parry.server.routing.Calls.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.server.StubContext;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** A request that fails a route's query and cookie conditions is turned away without allocating. */
class ConditionAllocationTest {
    private static final int LOOKUPS = 20_000;

    @Test
    void turnsAwayARequestThatFailsQueryAndCookieConditionsWithoutAllocating() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeThat(threads.isThreadAllocatedMemorySupported())
                .as("per-thread allocation counting")
                .isTrue();
        Router router = Router.builder()
                .get("/app/{id}", named("beta"), route -> route.queryPresent("beta"))
                .get("/app/{id}", named("v2"), route -> route.query("v", "2"))
                .get("/app/{id}", named("canary"), route -> route.cookie("channel", "beta"))
                .build();
        HttpRequest request = HttpRequest.builder(HttpMethod.GET, "/app/7?v=3&betas=1")
                .header("cookie", "theme=dark; channel=stable")
                .build();
        StubContext ctx = new StubContext();
        for (int i = 0; i < LOOKUPS; i++) {
            assertThat(router.find(ctx, request)).isEmpty();
        }

        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < LOOKUPS; i++) {
            router.find(ctx, request);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;

        // Far less than one small object per lookup: the measurement itself may allocate a little.
        assertThat(allocated).isLessThan(LOOKUPS);
    }
}
