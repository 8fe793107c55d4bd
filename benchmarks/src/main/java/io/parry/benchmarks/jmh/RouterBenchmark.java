package io.parry.benchmarks.jmh;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.routing.Router;
import java.net.InetSocketAddress;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Routing one request through a {@link Router} of 10 to 10,000 routes: the trie lookup, path
 * parameter capture and the call of a handler that answers with a prepared stage. The requests cycle
 * through 1,024 paths drawn at random from the routes, so a large table is not all in the cache.
 *
 * <pre>
 * java -jar benchmarks/target/parry-benchmarks.jar RouterBenchmark -f 1 -wi 3 -w 1 -i 5 -r 1
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class RouterBenchmark {
    private static final int REQUESTS = 1024;

    /** How many routes the router holds. */
    @Param({"10", "100", "1000", "10000"})
    public int routes;

    /**
     * {@code static}: {@code GET /api/resource<i>/items}; {@code param}: {@code GET
     * /api/resource<i>/{id}/parts/{part}}; {@code mixed}: the two alternating; {@code prefix}: a route
     * for every method at {@code /api/resource<i>/**}, as the gateway's prefix routes are; {@code host}:
     * the static routes with a host condition that holds.
     */
    @Param({"static", "param", "mixed", "prefix", "host"})
    public String kind;

    private final RequestContext ctx = new BenchmarkContext();
    private Router router;
    private HttpRequest[] requests;
    private int next;

    @Setup
    public void setUp() {
        CompletionStage<HttpResponse> ok = HttpResponse.ofText("ok").toStage();
        Handler handler = (ctx, request) -> ok;
        Router.Builder builder = Router.builder();
        for (int i = 0; i < routes; i++) {
            if (kind.equals("prefix")) {
                builder.all("/api/resource" + i + "/**", handler);
            } else if (kind.equals("host")) {
                builder.get("/api/resource" + i + "/items", handler, route -> route.host("api.example.com"));
            } else {
                builder.get(
                        isParam(i) ? "/api/resource" + i + "/{id}/parts/{part}" : "/api/resource" + i + "/items",
                        handler);
            }
        }
        router = builder.build();
        Random random = new Random(42);
        requests = new HttpRequest[REQUESTS];
        for (int r = 0; r < REQUESTS; r++) {
            int i = random.nextInt(routes);
            String path = isParam(i)
                    ? "/api/resource" + i + "/" + r + "/parts/p" + r
                    : kind.equals("prefix") ? "/api/resource" + i + "/items/" + r : "/api/resource" + i + "/items";
            requests[r] = HttpRequest.builder(HttpMethod.GET, path)
                    .header("host", "api.example.com:8080")
                    .build();
        }
    }

    private boolean isParam(int i) {
        return kind.equals("param") || (kind.equals("mixed") && i % 2 == 1);
    }

    @Benchmark
    public CompletionStage<HttpResponse> route() throws Exception {
        HttpRequest request = requests[next];
        next = (next + 1) & (REQUESTS - 1);
        return router.handle(ctx, request);
    }

    /** A context with no connection behind it; routing reads only the request id, and only for errors. */
    private static final class BenchmarkContext implements RequestContext {
        @Override
        public String requestId() {
            return "bench";
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return null;
        }

        @Override
        public InetSocketAddress localAddress() {
            return null;
        }

        @Override
        public String protocol() {
            return "HTTP/1.1";
        }

        @Override
        public ScheduledExecutorService eventLoop() {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
            throw new UnsupportedOperationException();
        }
    }
}
