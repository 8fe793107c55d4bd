package io.parry.benchmarks.jmh;

import io.parry.benchmarks.todo.AnnotatedTodoController;
import io.parry.benchmarks.todo.AnnotatedTodoControllerRoutes;
import io.parry.benchmarks.todo.NewTodo;
import io.parry.http.HttpBody;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.json.JsonCodec;
import io.parry.json.JsonEndpoints;
import io.parry.json.JsonResult;
import io.parry.server.RequestContext;
import io.parry.server.routing.Router;
import io.parry.validation.BeanValidator;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A typed JSON endpoint ({@code POST /todos}: route, decode, validate, call, encode) written by hand
 * with {@code JsonEndpoints} against the same endpoint generated from {@link AnnotatedTodoController};
 * both through a {@link Router}, on the calling thread as on an event loop.
 *
 * <pre>
 * java -jar benchmarks/target/parry-benchmarks.jar AnnotatedEndpointBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class AnnotatedEndpointBenchmark {
    private static final String JSON = "{\"title\":\"buy milk\",\"completed\":false,\"order\":3}";

    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    private final RequestContext ctx = new Context();
    private Router functional;
    private Router annotated;
    private HttpRequest request;

    @Setup
    public void routers() {
        JsonCodec codec = JsonCodec.ofDefault();
        JsonEndpoints json = JsonEndpoints.builder()
                .codec(codec)
                .validator(BeanValidator.create(codec))
                .build();
        AtomicLong ids = new AtomicLong();
        functional = Router.builder()
                .post("/todos", json.sync(NewTodo.class, (ctx, todo) -> {
                    long id = ids.incrementAndGet();
                    return JsonResult.created(
                            "/todos/" + id, new Todo(id, todo.title(), todo.completed(), todo.order()));
                }))
                .build();
        Router.Builder builder = Router.builder();
        new AnnotatedTodoControllerRoutes(new AnnotatedTodoController(), json).addTo(builder);
        annotated = builder.build();
        request = HttpRequest.builder(HttpMethod.POST, "/todos")
                .header("content-type", "application/json")
                .body(HttpBody.ofUtf8(JSON))
                .build();
    }

    @TearDown
    public void stop() {
        loop.shutdown();
    }

    @Benchmark
    public HttpResponse handWritten() throws Exception {
        return functional.handle(ctx, request).toCompletableFuture().join();
    }

    @Benchmark
    public HttpResponse generated() throws Exception {
        return annotated.handle(ctx, request).toCompletableFuture().join();
    }

    /** The hand-written endpoint's output: the record the controller returns. */
    record Todo(long id, String title, boolean completed, Integer order) {}

    private final class Context implements RequestContext {
        private final InetSocketAddress address = new InetSocketAddress("127.0.0.1", 8080);

        @Override
        public String requestId() {
            return "bench";
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return address;
        }

        @Override
        public InetSocketAddress localAddress() {
            return address;
        }

        @Override
        public String protocol() {
            return "HTTP/1.1";
        }

        @Override
        public ScheduledExecutorService eventLoop() {
            return loop;
        }

        @Override
        public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
            try {
                return CompletableFuture.completedFuture(work.call());
            } catch (Exception e) {
                return CompletableFuture.failedFuture(e);
            }
        }
    }
}
