package io.parry.client.internal;

import io.parry.client.CallTimeoutException;
import io.parry.client.ClientProtocol;
import io.parry.client.ConnectionClosedException;
import io.parry.client.Endpoint;
import io.parry.client.PoolExhaustedException;
import io.parry.client.PoolOptions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The connections to one endpoint on one event loop, and the calls waiting for one. Confined to the
 * loop, so it needs no lock; only the published counts are read from other threads.
 *
 * <p>Idle connections are reused last-in first-out, so the busiest few stay warm and the rest age out.
 * A call that finds no idle connection opens one while fewer than {@code maxConnections} are open, and
 * otherwise queues, up to {@code maxPending} calls beyond those whose connection is being opened.
 * Whenever a connection comes free, the oldest waiting call takes it. The pool changes its state
 * before it completes a call, so code run by that completion sees a consistent pool.
 *
 * <p>HTTP/2 connections ({@link H2Connection}) are shared: a call takes a stream on the oldest one
 * with room under the upstream's stream limit, and another connection is opened only when all are
 * full. While a client that speaks HTTP/2 waits for its first connection, calls queue behind it
 * instead of opening one each; if TLS negotiation settles on HTTP/1.1, the pool goes back to one call
 * per connection.
 */
final class ConnectionPool {
    final Endpoint endpoint;
    private final LoopPools loop;
    private final int maxConnections;
    private final int maxPending;
    private final long idleTimeoutNanos;
    private final long maxLifetimeNanos;
    /** The longest response body a connection reads and drops to stay reusable after its call was abandoned. */
    final int abandonedDrain;
    /** How long such a response may take to end. */
    final long abandonedDrainNanos;

    private final long pingIntervalNanos;
    /** Whether connections are expected to be HTTP/2, until one negotiates HTTP/1.1. */
    private boolean multiplexing;

    private final ArrayDeque<ClientConnection> idle = new ArrayDeque<>();
    private final ArrayDeque<ClientCall> waiters = new ArrayDeque<>();
    /** HTTP/2 connections, oldest first, including those going away until they close. */
    private final List<H2Connection> shared = new ArrayList<>();
    /** Busy connections, linked through the connections, for deadline checks. */
    private ClientConnection busyHead;

    private int open;
    private int connecting;
    private int busy;
    private boolean closed;
    private volatile int activeCount;
    private volatile int idleCount;
    private volatile int pendingCount;

    ConnectionPool(LoopPools loop, Endpoint endpoint) {
        this.loop = loop;
        this.endpoint = endpoint;
        PoolOptions options = loop.options.pool();
        this.maxConnections = options.maxConnections();
        this.maxPending = options.maxPending();
        this.idleTimeoutNanos = Durations.nanos(options.idleTimeout());
        this.maxLifetimeNanos = Durations.nanos(options.maxLifetime());
        this.abandonedDrain = options.abandonedDrain();
        this.abandonedDrainNanos = Durations.nanos(options.abandonedDrainTime());
        this.pingIntervalNanos = Durations.nanos(options.pingInterval());
        this.multiplexing = loop.options.protocol() != ClientProtocol.HTTP1;
    }

    /** Gives the call a connection now, opens one for it, queues it, or fails it when the queue is full. */
    void acquire(ClientCall call) {
        call.pool = this;
        long now = System.nanoTime();
        H2Connection multiplexed = withRoom(now);
        if (multiplexed != null) {
            multiplexed.open(call);
            publish();
            return;
        }
        ClientConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            if (connection.isReusable(now, idleTimeoutNanos, maxLifetimeNanos)) {
                assign(connection, call);
                return;
            }
            drop(connection);
        }
        if (multiplexing && connecting > 0 && waiters.size() < maxPending) {
            call.state = ClientCall.WAITING; // Behind a connection that will carry many streams.
            waiters.add(call);
            publish();
            return;
        }
        if (open < maxConnections) {
            call.state = ClientCall.WAITING;
            waiters.add(call);
            startConnect(call);
            publish();
            return;
        }
        if (waiters.size() - connecting >= maxPending) {
            publish();
            call.fail(new PoolExhaustedException(endpoint));
            return;
        }
        call.state = ClientCall.WAITING;
        waiters.add(call);
        publish();
    }

    /** A connection opened for {@code owner}; the oldest waiting call takes it. */
    void connected(ClientConnection connection, ClientCall owner) {
        connecting--;
        owner.ownsConnect = false;
        if (closed) {
            drop(connection);
            return;
        }
        handOver(connection);
        if (owner.isWaitingIn(this)) {
            backfill();
        }
        publish();
    }

    /** An HTTP/2 connection opened for {@code owner} is ready: waiting calls take its streams. */
    void connected(H2Connection connection, ClientCall owner) {
        connecting--;
        owner.ownsConnect = false;
        shared.add(connection);
        if (closed) {
            connection.clientClosed();
            return;
        }
        serve(connection);
        backfill();
        publish();
    }

    /** A TLS connection of a client that offers HTTP/2 settled on HTTP/1.1: one call per connection. */
    void negotiatedHttp1() {
        multiplexing = false;
        backfill();
    }

    /** A stream of the connection ended, or its limit rose: the next waiting calls take its room. */
    void streamEnded(H2Connection connection) {
        if (!closed && shared.contains(connection)) {
            if (connection.isGoingAway() && connection.isIdle()) {
                connection.close();
            } else {
                serve(connection);
            }
        }
        publish();
    }

    /** The upstream sent GOAWAY: no new streams there; it closes once its streams end. */
    void goingAway(H2Connection connection) {
        if (connection.isIdle()) {
            connection.close();
        }
        backfill();
        publish();
    }

    /** The HTTP/2 connection closed. */
    void discard(H2Connection connection) {
        if (shared.remove(connection)) {
            open--;
            backfill();
            publish();
        }
    }

    /**
     * Opening a connection for {@code owner} failed: the owner fails if it still waits. So does every
     * waiting call with no connect of its own when no connection is open, since nothing would serve it
     * but another connect to the same endpoint, likely to fail the same way one timeout later.
     */
    void connectFailed(ClientCall owner, Throwable cause) {
        connecting--;
        open--;
        owner.ownsConnect = false;
        boolean noneOpen = open == connecting;
        List<ClientCall> failing = new ArrayList<>(1);
        for (Iterator<ClientCall> it = waiters.iterator(); it.hasNext(); ) {
            ClientCall call = it.next();
            if (call == owner || (noneOpen && !call.ownsConnect)) {
                it.remove();
                failing.add(call);
            }
        }
        backfill();
        publish();
        for (ClientCall call : failing) {
            if (call.isDone()) {
                call.state = ClientCall.DONE;
            } else {
                call.fail(cause);
            }
        }
    }

    /** The connection finished a call; it serves the next one, waits idle, or closes. */
    void release(ClientConnection connection, boolean reusable) {
        unlinkBusy(connection);
        busy--;
        if (!reusable || closed || !connection.isReusable(System.nanoTime(), 0, maxLifetimeNanos)) {
            drop(connection);
            backfill();
        } else {
            handOver(connection);
        }
        publish();
    }

    /** Keeps a connection a {@code 101} took out of this pool until it ends, so that closing the client closes it. */
    void upgraded(HeldUpgrade upgrade) {
        loop.upgraded(upgrade);
    }

    /** The connection closed or failed; a no-op when the pool had already let it go. */
    void discard(ClientConnection connection) {
        switch (connection.poolState) {
            case ClientConnection.IDLE:
                idle.remove(connection);
                break;
            case ClientConnection.BUSY:
                unlinkBusy(connection);
                busy--;
                break;
            default:
                return;
        }
        connection.poolState = ClientConnection.CLOSED;
        open--;
        backfill();
        publish();
    }

    /** A queued call was abandoned by its caller. */
    void cancelWaiter(ClientCall call) {
        waiters.remove(call);
        publish();
    }

    /** Closes idle connections past their time and fails calls past their deadlines. */
    void sweep(long now) {
        boolean dropped = false;
        for (Iterator<ClientConnection> it = idle.iterator(); it.hasNext(); ) {
            ClientConnection connection = it.next();
            if (!connection.isReusable(now, idleTimeoutNanos, maxLifetimeNanos)) {
                it.remove();
                drop(connection);
                dropped = true;
            }
        }
        for (ClientConnection connection = busyHead; connection != null; ) {
            ClientConnection next = connection.nextBusy;
            connection.checkDeadlines(now);
            connection = next;
        }
        for (H2Connection connection : List.copyOf(shared)) {
            if (connection.isIdle()
                    && ((idleTimeoutNanos > 0 && now - connection.idleSinceNanos >= idleTimeoutNanos)
                            || connection.isTooOld(now, maxLifetimeNanos))) {
                connection.close();
            } else {
                connection.checkDeadlines(now, pingIntervalNanos);
            }
        }
        List<ClientCall> expired = null;
        for (ClientCall call : waiters) {
            if (call.callExpired(now)) {
                expired = expired == null ? new ArrayList<>(2) : expired;
                expired.add(call);
            }
        }
        if (expired != null) {
            waiters.removeAll(expired);
        }
        if (dropped || expired != null) {
            backfill();
        }
        publish();
        if (expired != null) {
            for (ClientCall call : expired) {
                call.fail(new CallTimeoutException(endpoint, call.timeouts.call(), call.requestSent));
            }
        }
    }

    /** Closes everything: waiting calls and calls in flight fail with {@link ConnectionClosedException}. */
    void close() {
        closed = true;
        List<ClientCall> waiting = new ArrayList<>(waiters);
        waiters.clear();
        ClientConnection connection;
        while ((connection = idle.poll()) != null) {
            drop(connection);
        }
        while (busyHead != null) {
            busyHead.clientClosed();
        }
        for (H2Connection multiplexed : List.copyOf(shared)) {
            multiplexed.clientClosed();
        }
        publish();
        for (ClientCall call : waiting) {
            call.fail(new ConnectionClosedException("the client was closed", false, null));
        }
    }

    boolean isClosed() {
        return closed;
    }

    boolean isEmpty() {
        return open == 0 && waiters.isEmpty();
    }

    int activeCount() {
        return activeCount;
    }

    int idleCount() {
        return idleCount;
    }

    int pendingCount() {
        return pendingCount;
    }

    private void handOver(ClientConnection connection) {
        ClientCall next = nextWaiter();
        if (next != null) {
            assign(connection, next);
        } else {
            connection.poolState = ClientConnection.IDLE;
            connection.idleSinceNanos = System.nanoTime();
            idle.push(connection);
        }
    }

    private ClientCall nextWaiter() {
        ClientCall call;
        while ((call = waiters.poll()) != null) {
            if (!call.isDone()) {
                return call;
            }
            call.state = ClientCall.DONE;
        }
        return null;
    }

    private void assign(ClientConnection connection, ClientCall call) {
        connection.poolState = ClientConnection.BUSY;
        busy++;
        connection.nextBusy = busyHead;
        if (busyHead != null) {
            busyHead.previousBusy = connection;
        }
        busyHead = connection;
        call.state = ClientCall.ACTIVE;
        call.connection = connection;
        publish();
        connection.start(call);
    }

    /**
     * Opens connections for waiting calls that have none coming, while there is room: one for each,
     * or for HTTP/2, one at a time, as one carries many.
     */
    private void backfill() {
        if (multiplexing) {
            ClientCall uncovered = connecting == 0 && !closed && open < maxConnections ? uncovered() : null;
            if (uncovered != null) {
                startConnect(uncovered);
            }
            return;
        }
        while (!closed && open < maxConnections) {
            ClientCall uncovered = null;
            for (ClientCall call : waiters) {
                if (!call.ownsConnect && !call.isDone()) {
                    uncovered = call;
                    break;
                }
            }
            if (uncovered == null) {
                return;
            }
            startConnect(uncovered);
        }
    }

    private ClientCall uncovered() {
        for (ClientCall call : waiters) {
            if (!call.ownsConnect && !call.isDone()) {
                return call;
            }
        }
        return null;
    }

    /** The oldest HTTP/2 connection with room for another stream, or {@code null}. */
    private H2Connection withRoom(long now) {
        for (int i = 0; i < shared.size(); i++) {
            H2Connection connection = shared.get(i);
            if (connection.hasCapacity() && !connection.isTooOld(now, maxLifetimeNanos)) {
                return connection;
            }
        }
        return null;
    }

    private void serve(H2Connection connection) {
        ClientCall next;
        while (connection.hasCapacity() && (next = nextWaiter()) != null) {
            connection.open(next);
        }
    }

    private void startConnect(ClientCall call) {
        open++;
        connecting++;
        call.ownsConnect = true;
        loop.connector.open(this, call);
    }

    /**
     * Closes a connection the pool has already let go of (it is in no list). The counts are published
     * first, so whoever sees the close sees the new counts too.
     */
    private void drop(ClientConnection connection) {
        connection.poolState = ClientConnection.CLOSED;
        open--;
        publish();
        connection.close();
    }

    private void unlinkBusy(ClientConnection connection) {
        if (connection.previousBusy != null) {
            connection.previousBusy.nextBusy = connection.nextBusy;
        } else if (busyHead == connection) {
            busyHead = connection.nextBusy;
        }
        if (connection.nextBusy != null) {
            connection.nextBusy.previousBusy = connection.previousBusy;
        }
        connection.previousBusy = null;
        connection.nextBusy = null;
    }

    private void publish() {
        int sharedIdle = 0;
        for (int i = 0; i < shared.size(); i++) {
            if (shared.get(i).isIdle()) {
                sharedIdle++;
            }
        }
        activeCount = busy + shared.size() - sharedIdle;
        idleCount = idle.size() + sharedIdle;
        pendingCount = waiters.size();
    }
}
