package io.parry.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A deliberately unreliable HTTP/1.1 upstream on 127.0.0.1 and an ephemeral port, for testing
 * clients and proxies against slow, broken and vanishing servers. It reads each request (head, and
 * a {@code Content-Length} or chunked body, counted and dropped), then answers as the current
 * {@link Fault} says, serving keep-alive connections until the client or a fault closes them.
 *
 * <p>Plain blocking sockets, one daemon thread per connection: faults happen exactly where they
 * are asked for. The fault for a request is chosen once the request has been read, so a test may
 * change faults between calls; the setters and counters may be used from any thread. By default it
 * answers {@code 200} with the body {@code ok}.
 *
 * <p>Use it with try-with-resources, or register it on a static field: it then serves the whole
 * class, goes back to its defaults before each test ({@link #reset()}) and closes after the class.
 * On an instance field each test gets its own upstream.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final FaultyUpstream upstream = FaultyUpstream.start();
 *
 * @Test
 * void retriesA503() {
 *     upstream.faultFirst(1, Fault.status(503));
 *     // call Endpoint.parse(upstream.endpointAddress()) through the client...
 *     upstream.awaitRequests(2, Duration.ofSeconds(5));
 * }
 * }</pre>
 */
public final class FaultyUpstream
        implements AutoCloseable, BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(5);

    private final int port;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Set<UpstreamConnection> connections = ConcurrentHashMap.newKeySet();
    private final Set<Thread> connectionThreads = ConcurrentHashMap.newKeySet();
    private final AtomicReference<FaultPlan> plan = new AtomicReference<>(FaultPlan.always(Fault.none()));
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger connectionNumbers = new AtomicInteger();
    private final ChangeSignal changes = new ChangeSignal();
    private volatile CannedResponse response = CannedResponse.DEFAULT;
    private volatile UpstreamRequest lastRequest;
    private volatile boolean perClass;
    // Guarded by this.
    private UpstreamListener listener;

    private FaultyUpstream() {
        listener = UpstreamListener.open(0, this::serve);
        port = listener.port();
    }

    /**
     * Starts an upstream listening on 127.0.0.1 and an ephemeral port.
     *
     * @throws UncheckedIOException if no port can be bound
     */
    public static FaultyUpstream start() {
        return new FaultyUpstream();
    }

    /**
     * A port on 127.0.0.1 that nothing listened on a moment ago, so connecting to it is refused
     * (unless another process binds it meanwhile; ephemeral ports are rarely reused so soon).
     */
    public static int refusedPort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(UpstreamListener.HOST, 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The port, the same for the upstream's whole life. */
    public int port() {
        return port;
    }

    /** The address as {@code 127.0.0.1:port}, the form {@code Endpoint.parse} takes. */
    public String endpointAddress() {
        return UpstreamListener.HOST + ":" + port;
    }

    /** The URI of this path on the upstream, for example {@code uri("/items")}. */
    public URI uri(String path) {
        requireNonNull(path, "path");
        return URI.create("http://" + endpointAddress() + path);
    }

    /**
     * Sets the response sent when the fault lets one through (and the body mid-body faults cut): a
     * {@code text/plain} UTF-8 body framed by {@code Content-Length}.
     *
     * @throws IllegalArgumentException if the status is not within 200 to 599, or is 204 or 304
     *     with a body
     */
    public void respond(int status, String body) {
        response = CannedResponse.of(status, body);
    }

    /** Answers every later request with this fault; {@link Fault#none()} makes the upstream healthy again. */
    public void fault(Fault fault) {
        requireNonNull(fault, "fault");
        plan.set(FaultPlan.always(fault));
    }

    /**
     * Answers the next {@code requests} requests with this fault, and the ones after as before the
     * call: {@code faultFirst(2, Fault.status(503))} then a healthy answer, for retry tests.
     *
     * @throws IllegalArgumentException if {@code requests} is not positive
     */
    public void faultFirst(int requests, Fault fault) {
        requireNonNull(fault, "fault");
        if (requests <= 0) {
            throw new IllegalArgumentException("requests: " + requests + " (expected: > 0)");
        }
        plan.updateAndGet(current -> new FaultPlan(fault, requests, current.then()));
    }

    /**
     * Stops listening and closes every open connection, as a stopped server would: new connections
     * are refused until {@link #acceptConnections()}. Does nothing if already refusing.
     */
    public synchronized void refuseConnections() {
        listener.close();
        connections.forEach(UpstreamConnection::close);
    }

    /**
     * Listens again, on the same port, after {@link #refuseConnections()}. Does nothing if
     * listening.
     *
     * @throws IllegalStateException if the upstream is closed
     * @throws UncheckedIOException if the port cannot be bound again
     */
    public synchronized void acceptConnections() {
        if (closed.getCount() == 0) {
            throw new IllegalStateException("the upstream is closed");
        }
        if (listener.isClosed()) {
            listener = UpstreamListener.open(port, this::serve);
        }
    }

    /**
     * Returns to the defaults: no fault, the default response, listening, counters at zero and no
     * last request. Open connections stay open. Called before each test when registered as an
     * extension.
     */
    public synchronized void reset() {
        plan.set(FaultPlan.always(Fault.none()));
        response = CannedResponse.DEFAULT;
        accepted.set(0);
        requests.set(0);
        lastRequest = null;
        acceptConnections();
    }

    /** How many TCP connections were accepted (since start or the last {@link #reset()}). */
    public int acceptedConnections() {
        return accepted.get();
    }

    /**
     * How many requests were read completely, body included (since start or the last {@link
     * #reset()}). A request counts before its answer is sent.
     */
    public int requests() {
        return requests.get();
    }

    /** How many connections are open now. */
    public int openConnections() {
        return connections.size();
    }

    /**
     * The last request's head exactly as received, from the request line to the empty line that
     * ends it, for header assertions; empty if no request came.
     */
    public String lastRequestHead() {
        UpstreamRequest last = lastRequest;
        return last == null ? "" : last.head();
    }

    /** The length of the last request's body (decoded, if chunked); 0 if no request came. */
    public long lastRequestBodyLength() {
        UpstreamRequest last = lastRequest;
        return last == null ? 0 : last.bodyLength();
    }

    /**
     * Waits until at least {@code count} requests were read.
     *
     * @throws AssertionError if that does not happen within the timeout
     */
    public void awaitRequests(int count, Duration timeout) {
        requireNonNull(timeout, "timeout");
        changes.await(
                () -> requests.get() >= count,
                timeout,
                () -> count + " requests, got " + requests.get() + " (" + endpointAddress() + ")");
    }

    /**
     * Waits until exactly {@code count} connections are open, for example 0 once a client closed
     * its pooled connections.
     *
     * @throws AssertionError if that does not happen within the timeout
     */
    public void awaitOpenConnections(int count, Duration timeout) {
        requireNonNull(timeout, "timeout");
        changes.await(
                () -> connections.size() == count,
                timeout,
                () -> count + " open connections, got " + connections.size() + " (" + endpointAddress() + ")");
    }

    /**
     * Stops listening, closes every connection, ends a pending slow fault, and waits for the
     * upstream's threads to end. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed.getCount() == 0) {
            return;
        }
        closed.countDown();
        listener.close();
        connections.forEach(UpstreamConnection::close);
        connectionThreads.forEach(FaultyUpstream::join);
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
    public void beforeEach(ExtensionContext context) {
        reset();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            close();
        }
    }

    @Override
    public String toString() {
        return "FaultyUpstream(" + endpointAddress() + ", " + plan.get() + ")";
    }

    /** Records a request that was read and returns the fault to answer it with. */
    Fault received(UpstreamRequest request) {
        lastRequest = request;
        requests.incrementAndGet();
        Fault fault = plan.getAndUpdate(FaultPlan::afterOne).current();
        changes.changed();
        return fault;
    }

    CannedResponse response() {
        return response;
    }

    /** Waits for the delay; false if the upstream closed meanwhile. */
    boolean pause(Duration delay) {
        try {
            return !closed.await(delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void connectionEnded(UpstreamConnection connection) {
        connections.remove(connection);
        connectionThreads.remove(Thread.currentThread());
        changes.changed();
    }

    private void serve(Socket socket) {
        accepted.incrementAndGet();
        UpstreamConnection connection = new UpstreamConnection(this, socket);
        connections.add(connection);
        Thread thread = new Thread(connection, "faulty-upstream-" + port + "-" + connectionNumbers.incrementAndGet());
        thread.setDaemon(true);
        connectionThreads.add(thread);
        thread.start();
        changes.changed();
    }

    /**
     * Waits for a thread of this upstream to end; it ends soon once its socket is closed.
     *
     * @throws IllegalStateException if it does not
     */
    static void join(Thread thread) {
        try {
            thread.join(JOIN_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (thread.isAlive()) {
            throw new IllegalStateException(thread.getName() + " did not end within " + JOIN_TIMEOUT);
        }
    }
}
