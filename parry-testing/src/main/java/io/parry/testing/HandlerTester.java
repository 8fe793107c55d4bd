package io.parry.testing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.Problem;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a {@link Handler} (a filter chain, a router) against in-memory requests, without a socket, and
 * returns each response with its body read. For unit tests of handlers; protocol behaviour (framing,
 * limits, timeouts, {@code Date}) needs the real server of {@link ServerExtension}.
 *
 * <pre>{@code
 * try (HandlerTester tester = HandlerTester.of(todos)) {
 *     TestResponse response = tester.get("/todos/42");
 *     assertThat(response.status()).isEqualTo(200);
 *     assertThatProblem(tester.get("/todos/43")).hasStatus(404).hasDetailContaining("43");
 * }
 * }</pre>
 *
 * <p>What the handler sees, as on a server: it runs on a single event-loop thread owned by the tester
 * ({@link RequestContext#eventLoop()}, which refuses to be shut down), {@link RequestContext#runBlocking}
 * runs work on a pool of four worker threads, request ids are {@code test-1}, {@code test-2}..., the
 * client is {@code 127.0.0.1:50000}, the server {@code 127.0.0.1:8080}, the protocol {@code HTTP/1.1},
 * and a request without {@code Host} gets {@code Host: localhost}. A thrown exception or failed stage
 * becomes the problem the server would send: {@link HttpStatusException} its status and detail,
 * anything else 500 without detail, a cancelled stage 503; the failure stays available from
 * {@link TestResponse#failure()}. What differs: {@link RequestContext#current()} is empty, since only
 * the server can make a context current; no framing or {@code Date} fields are added; a {@code HEAD}
 * response keeps any body the handler gave it.
 *
 * <p>{@link #send} blocks the calling test thread until the response and its body are complete, for at
 * most 10 seconds, then fails the test. Bodies are read up to 16 MiB. Safe to use from several threads.
 * Close the tester to end its threads, or register it with {@code @RegisterExtension}: on a static
 * field it closes after all tests, on an instance field after each.
 */
public final class HandlerTester implements AutoCloseable, BeforeAllCallback, AfterAllCallback, AfterEachCallback {
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    private static final long MAX_BODY_BYTES = 16 << 20;
    private static final AtomicInteger WORKER_COUNT = new AtomicInteger();

    private final Handler handler;
    private final Duration timeout;
    private final TestEventLoop eventLoop = new TestEventLoop();
    private final ExecutorService workers = Executors.newFixedThreadPool(4, task -> {
        Thread thread = new Thread(task, "parry-test-worker-" + WORKER_COUNT.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong requestIds = new AtomicLong();
    private boolean perClass;

    HandlerTester(Handler handler, Duration timeout) {
        this.handler = requireNonNull(handler, "handler");
        this.timeout = timeout;
    }

    /** A tester for this handler, with its own event loop and workers. */
    public static HandlerTester of(Handler handler) {
        return new HandlerTester(handler, DEFAULT_TIMEOUT);
    }

    /** Sends {@code GET target} (for example {@code /todos?done=true}) with no other fields. */
    public TestResponse get(String target) {
        return send(HttpRequest.of(HttpMethod.GET, target));
    }

    /**
     * Runs the handler for this request on the event loop and waits for the response and its body.
     *
     * @throws AssertionError if the handler does not answer within 10 seconds, or the response body
     *     fails or is over 16 MiB (a server would close the connection)
     */
    public TestResponse send(HttpRequest request) {
        requireNonNull(request, "request");
        if (eventLoop.isShutdown()) {
            throw new IllegalStateException("the HandlerTester is closed");
        }
        HttpRequest sent =
                request.headers().contains("host") ? request : request.mapHeaders(h -> h.add("host", "localhost"));
        TestContext ctx = new TestContext("test-" + requestIds.incrementAndGet(), sent, eventLoop, workers);
        CompletableFuture<HttpResponse> answered = new CompletableFuture<>();
        eventLoop.execute(() -> handle(ctx, sent, answered));
        HttpResponse response;
        Throwable failure = null;
        try {
            response = await(answered, sent, "answer");
        } catch (ExecutionException e) {
            failure = unwrap(e.getCause());
            response = problem(ctx, sent, failure);
        }
        try {
            HttpData body = await(response.body().aggregate(MAX_BODY_BYTES), sent, "finish the response body");
            HttpHeaders trailers = await(response.body().trailers(), sent, "finish the trailers");
            return new TestResponse(ctx.requestId(), response, body, trailers, failure);
        } catch (ExecutionException e) {
            throw new AssertionError(
                    "the response body of " + sent + " failed after its headers, or is over 16 MiB;"
                            + " a server would close the connection",
                    unwrap(e.getCause()));
        }
    }

    private void handle(RequestContext ctx, HttpRequest request, CompletableFuture<HttpResponse> answered) {
        try {
            CompletionStage<HttpResponse> stage = handler.handle(ctx, request);
            if (stage == null) {
                throw new NullPointerException("handler returned null");
            }
            stage.whenComplete((response, failure) -> {
                if (failure != null) {
                    fail(answered, failure);
                } else if (response == null) {
                    fail(answered, new NullPointerException("handler completed with null"));
                } else {
                    answered.complete(response);
                }
            });
        } catch (Throwable t) {
            fail(answered, t);
        }
    }

    /** Wrapped, so that a cancellation reads as the handler's failure and not as a cancelled wait. */
    private static void fail(CompletableFuture<HttpResponse> answered, Throwable failure) {
        answered.completeExceptionally(
                failure instanceof CompletionException ? failure : new CompletionException(failure));
    }

    private <T> T await(CompletionStage<T> stage, HttpRequest request, String what) throws ExecutionException {
        try {
            return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the handler did not " + what + " for " + request + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + request, e);
        }
    }

    /** The problem the server answers a failure with (see the server's error handling). */
    private static HttpResponse problem(RequestContext ctx, HttpRequest request, Throwable failure) {
        HttpStatus status = HttpStatus.INTERNAL_SERVER_ERROR;
        String detail = null;
        if (failure instanceof HttpStatusException) {
            status = ((HttpStatusException) failure).status();
            detail = ((HttpStatusException) failure).detail();
        } else if (failure instanceof CancellationException) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
        }
        return Problem.of(status)
                .detail(detail)
                .requestId(ctx.requestId())
                .instance(request.path())
                .toResponse();
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** Ends the event loop and the workers; tasks not yet run are dropped. */
    @Override
    public void close() {
        eventLoop.terminate();
        workers.shutdownNow();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            close();
        }
    }

    @Override
    public String toString() {
        return "HandlerTester(" + handler + ")";
    }
}
