package io.parry.server;

import static java.util.Objects.requireNonNull;

import io.parry.server.internal.ServerEngine;
import io.parry.transport.TransportKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An HTTP/1.1 server: one handler behind a listener.
 *
 * <pre>{@code
 * Server server = Server.builder()
 *         .port(8080)
 *         .handler(Handler.sync((ctx, request) -> HttpResponse.ofText("Hello, World!")))
 *         .build()
 *         .start();
 * // ...
 * server.stop(Duration.ofSeconds(10));
 * }</pre>
 *
 * <p>{@link #start()} binds before it returns; {@link #stop(Duration)} stops accepting, lets
 * requests in flight finish, closes idle connections, answers requests that arrive meanwhile with
 * {@code Connection: close}, and closes what is left at the deadline. A server is started once.
 */
public final class Server implements AutoCloseable {
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(10);

    private final ServerEngine engine;

    private Server(ServerOptions options, Handler handler, List<RequestListener> listeners, RequestTracer tracer) {
        this.engine = new ServerEngine(options, handler, listeners, tracer);
    }

    private Server watching(Overload overload) {
        if (overload != null) {
            engine.watch(overload.state());
        }
        return this;
    }

    /** A server with these options and handler, not yet started. */
    public static Server of(ServerOptions options, Handler handler) {
        return new Server(requireNonNull(options, "options"), requireNonNull(handler, "handler"), List.of(), null);
    }

    /** A builder for a server. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds the listener and starts serving.
     *
     * @return this server
     * @throws IllegalStateException if the server was started or stopped before, or cannot bind
     */
    public Server start() {
        engine.start();
        return this;
    }

    /** The port the server listens on; with port 0 in the options, the one the system chose. */
    public int port() {
        return engine.port();
    }

    /** The transport the event loops use, after the fallback to NIO if a native one did not load. */
    public TransportKind transport() {
        return engine.transport();
    }

    /**
     * Whether a stop has begun: the server no longer accepts connections and closes the open ones as
     * their exchanges finish. Readiness checks report not ready from this moment.
     */
    public boolean isDraining() {
        return engine.isDraining();
    }

    /** The number of open connections. */
    public int connections() {
        return engine.connections();
    }

    /**
     * The blocking tasks running or waiting on the worker executor ({@link Handler#blocking}): at most
     * {@code maxConcurrent} on virtual threads, {@code maxThreads} plus {@code queueSize} on a platform
     * pool. For metrics; tasks refused when it is full count as {@link Rejection#WORKERS_BUSY}.
     */
    public int workerTasks() {
        return engine.workerTasks();
    }

    /** How many times the server refused for this reason since it started. */
    public long rejections(Rejection reason) {
        return engine.rejections(requireNonNull(reason, "reason"));
    }

    /**
     * Stops gracefully: returns when every connection has closed, at the latest after {@code grace}
     * (when the rest are closed) plus the time the event loops take to end.
     */
    public void stop(Duration grace) {
        engine.stop(requireNonNull(grace, "grace"));
    }

    /** Stops with a grace period of ten seconds. */
    @Override
    public void close() {
        stop(CLOSE_GRACE);
    }

    /** Builds a {@link Server}; not thread-safe. */
    public static final class Builder {
        private ServerOptions.Builder options = ServerOptions.builder();
        private Handler handler;
        private ErrorHandler errorHandler;
        private final List<RequestListener> listeners = new ArrayList<>();
        private RequestTracer tracer;
        private Overload overload;

        private Builder() {}

        /** Sets the handler that answers every request. */
        public Builder handler(Handler handler) {
            this.handler = requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Sets the server's error handler, asked about every failure the handler does not answer itself,
         * before Parry's default.
         */
        public Builder errorHandler(ErrorHandler errorHandler) {
            this.errorHandler = requireNonNull(errorHandler, "errorHandler");
            return this;
        }

        /**
         * Adds a listener told about every request when it ends, such as an
         * {@link io.parry.server.accesslog.AccessLog}. Listeners are called in the order added, on the
         * connection's event loop; one that throws does not stop the others. With no listener the
         * server keeps no request log at all.
         */
        public Builder listener(RequestListener listener) {
            listeners.add(requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Sets the tracer that starts the span of each traced request, so a tracing system such as
         * OpenTelemetry records the ids Parry logs and propagates (default: none, Parry numbers spans
         * itself). With a tracer the server keeps a request log for each request, to end its span.
         */
        public Builder tracer(RequestTracer tracer) {
            this.tracer = requireNonNull(tracer, "tracer");
            return this;
        }

        /**
         * Samples this overload guard's event-loop lag, heap and direct memory on this server's event
         * loops while it runs (default: none). Which requests it sheds is up to its {@link
         * Overload#filter filters}, placed around the routes they guard.
         */
        public Builder overload(Overload overload) {
            this.overload = requireNonNull(overload, "overload");
            return this;
        }

        /** Sets the port; 0 picks a free one. */
        public Builder port(int port) {
            options.port(port);
            return this;
        }

        /** Sets the address to listen on. */
        public Builder host(String host) {
            options.host(host);
            return this;
        }

        /** Sets every option at once, replacing what was set so far; later calls may change them. */
        public Builder options(ServerOptions options) {
            this.options = requireNonNull(options, "options").toBuilder();
            return this;
        }

        /** Changes the other options: {@code .options(o -> o.eventLoopThreads(2).limits(limits))}. */
        public Builder options(Consumer<ServerOptions.Builder> edits) {
            edits.accept(options);
            return this;
        }

        /**
         * The server, not yet started.
         *
         * @throws IllegalStateException if no handler was set
         */
        public Server build() {
            if (handler == null) {
                throw new IllegalStateException("handler: null (expected: a handler for requests)");
            }
            return new Server(
                            options.build(),
                            errorHandler == null ? handler : handler.with(errorHandler.asFilter()),
                            List.copyOf(listeners),
                            tracer)
                    .watching(overload);
        }
    }
}
