package io.parry.it.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.WorkerOptions;
import io.parry.server.routing.RouteSpec;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Where each route's handler runs, and that the routed context is current there. */
class RouteSchedulingTest {
    private static final ExecutorService REPORTS =
            Executors.newSingleThreadExecutor(task -> new Thread(task, "reports-executor"));

    /** Names the thread, and whether the context passed in (with its path parameters) is the current one. */
    private static final Handler WHERE = (ctx, request) -> {
        boolean current = RequestContext.current().orElse(null) == ctx;
        return HttpResponse.ofText(Thread.currentThread().getName() + " current=" + current + " params="
                        + RequestContext.current()
                                .map(RequestContext::pathParams)
                                .orElse(null))
                .toStage();
    };

    /** Schedules a timer on the event loop and reports what is current when it fires. */
    private static final Handler TIMER = (ctx, request) -> {
        CompletableFuture<HttpResponse> later = new CompletableFuture<>();
        ctx.eventLoop()
                .schedule(
                        () -> later.complete(HttpResponse.ofText("timer params="
                                + RequestContext.current()
                                        .map(RequestContext::pathParams)
                                        .orElse(null))),
                        1,
                        TimeUnit.MILLISECONDS);
        return later;
    };

    private static final Router ROUTER = Router.builder()
            .executor("reports", REPORTS)
            .get("/loop/{id}", WHERE)
            .get("/worker/{id}", WHERE, RouteSpec::blocking)
            .get("/reports/{id}", WHERE, route -> route.executor("reports"))
            .get("/timer/{id}", TIMER)
            .build();

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            ROUTER,
            options -> options.workers(
                    WorkerOptions.builder().virtualThreads(false).build()));

    @AfterAll
    static void shutDown() {
        REPORTS.shutdown();
    }

    @Test
    void runsOnTheEventLoopByDefault() {
        assertThat(get("/loop/1")).startsWith("parry-loop-").endsWith("current=true params={id=1}");
    }

    @Test
    void runsABlockingRouteOnAWorkerWithTheRoutedContextCurrent() {
        assertThat(get("/worker/2")).startsWith("parry-worker-").endsWith("current=true params={id=2}");
    }

    @Test
    void runsOnTheNamedExecutorWithTheRoutedContextCurrent() {
        assertThat(get("/reports/3")).isEqualTo("reports-executor current=true params={id=3}");
    }

    @Test
    void carriesTheRoutedContextToEventLoopTasks() {
        assertThat(get("/timer/4")).isEqualTo("timer params={id=4}");
    }

    @Test
    void showsEachRoutesSchedulingInTheRouteTable() {
        assertThat(ROUTER.toString())
                .contains(
                        "GET /loop/{id} on event-loop",
                        "GET /worker/{id} on worker",
                        "GET /reports/{id} on executor:reports");
    }

    private static String get(String path) {
        try (RawConnection connection = server.connect()) {
            connection.send("GET " + path + " HTTP/1.1\nHost: a\n\n");
            RawResponse response = connection.readResponse();
            assertThat(response.status()).isEqualTo(200);
            return response.bodyText();
        }
    }
}
