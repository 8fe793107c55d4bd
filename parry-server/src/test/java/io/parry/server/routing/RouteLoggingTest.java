package io.parry.server.routing;

import static io.parry.server.routing.Calls.named;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.RequestContext;
import io.parry.server.RequestLogBuilder;
import io.parry.server.StubContext;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

class RouteLoggingTest {
    private final Router inner = Router.builder()
            .get("/", named("inner root"))
            .get("/items/{id}", named("item"))
            .get("/named/{id}", named("named"), route -> route.name("lookup"))
            .build();
    private final Router router = Router.builder()
            .get("/todos/{id}", named("todo"))
            .get("/health", named("health"))
            .group("/admin", admin -> admin.get("/stats", named("stats")))
            .mount("/v2", inner)
            .mount("/tenants/{tenant}", Router.builder().mount("/shop", inner).build())
            .mount("/static", named("files"))
            .all("/api/**", named("api"), route -> route.name("api"))
            .build();

    @Test
    void recordsThePatternOfTheMatchedRoute() {
        assertThat(routeOf("/todos/42")).isEqualTo("/todos/{id}");
        assertThat(routeOf("/health")).isEqualTo("/health");
        assertThat(routeOf("/admin/stats")).isEqualTo("/admin/stats");
    }

    @Test
    void putsTheMountPrefixBeforeAMountedRoutersPattern() {
        assertThat(routeOf("/v2/items/7")).isEqualTo("/v2/items/{id}");
        assertThat(routeOf("/v2")).isEqualTo("/v2");
        assertThat(routeOf("/tenants/acme/shop/items/7")).isEqualTo("/tenants/{tenant}/shop/items/{id}");
    }

    @Test
    void namesAMountedHandlerThatIsNoRouterByItsPrefix() {
        assertThat(routeOf("/static/css/site.css")).isEqualTo("/static/**");
    }

    @Test
    void recordsTheNameOfANamedRouteWhereverItIsMounted() {
        assertThat(routeOf("/api/a/b")).isEqualTo("api");
        assertThat(routeOf("/v2/named/7")).isEqualTo("lookup");
    }

    @Test
    void recordsNoRouteWhenNoneMatched() {
        assertThat(routeOf("/nowhere")).isNull();
    }

    private String routeOf(String target) {
        LoggingContext ctx = new LoggingContext();
        try {
            router.handle(
                            ctx,
                            HttpRequest.builder(HttpMethod.GET, target)
                                    .header("host", "a")
                                    .build())
                    .toCompletableFuture()
                    .join();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return ctx.route;
    }

    /** A server's context reduced to what routing needs, keeping the route the router records. */
    private static final class LoggingContext implements RequestContext, RequestLogBuilder {
        private final StubContext stub = new StubContext();
        String route;

        @Override
        public RequestLogBuilder log() {
            return this;
        }

        @Override
        public RequestLogBuilder route(String pattern) {
            route = pattern;
            return this;
        }

        @Override
        public RequestLogBuilder upstream(String upstream) {
            return this;
        }

        @Override
        public RequestLogBuilder addUpstreamNanos(long nanos) {
            return this;
        }

        @Override
        public String requestId() {
            return stub.requestId();
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return stub.remoteAddress();
        }

        @Override
        public InetSocketAddress localAddress() {
            return stub.localAddress();
        }

        @Override
        public String protocol() {
            return stub.protocol();
        }

        @Override
        public ScheduledExecutorService eventLoop() {
            return stub.eventLoop();
        }

        @Override
        public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
            return stub.runBlocking(work);
        }
    }
}
