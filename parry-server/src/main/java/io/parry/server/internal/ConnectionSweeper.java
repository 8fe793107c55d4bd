package io.parry.server.internal;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The connections of one event loop, in an intrusive list, checked against their deadlines every
 * tick. One task per event loop replaces a scheduled task per connection: an idle connection then
 * costs two references instead of a timer object, and no request schedules or cancels anything.
 * Touched only on its event loop.
 */
final class ConnectionSweeper {
    private final EventExecutor loop;
    private final long tickNanos;
    private SweptConnection head;
    /** Connections handed over by a 101 response: drained and closed with the others, never swept. */
    private TakenOverConnection takenOver;

    private boolean scheduled;

    ConnectionSweeper(EventExecutor loop, long tickNanos) {
        this.loop = loop;
        this.tickNanos = tickNanos;
    }

    /** Runs the task on this sweeper's event loop. */
    void execute(Runnable task) {
        loop.execute(task);
    }

    void add(SweptConnection connection) {
        connection.nextSwept(head);
        if (head != null) {
            head.previousSwept(connection);
        }
        head = connection;
        if (!scheduled) {
            scheduled = true;
            loop.schedule(this::sweep, tickNanos, TimeUnit.NANOSECONDS);
        }
    }

    void remove(SweptConnection connection) {
        SweptConnection previous = connection.previousSwept();
        SweptConnection next = connection.nextSwept();
        if (previous != null) {
            previous.nextSwept(next);
        } else if (head == connection) {
            head = next;
        }
        if (next != null) {
            next.previousSwept(previous);
        }
        connection.previousSwept(null);
        connection.nextSwept(null);
    }

    void add(TakenOverConnection connection) {
        connection.next = takenOver;
        if (takenOver != null) {
            takenOver.previous = connection;
        }
        takenOver = connection;
    }

    void remove(TakenOverConnection connection) {
        if (connection.previous != null) {
            connection.previous.next = connection.next;
        } else if (takenOver == connection) {
            takenOver = connection.next;
        }
        if (connection.next != null) {
            connection.next.previous = connection.previous;
        }
        connection.previous = null;
        connection.next = null;
    }

    /** Asks every connection to close as soon as its exchanges finish, and every taken-over one to end. */
    void drainAll() {
        for (SweptConnection connection = head; connection != null; ) {
            SweptConnection next = connection.nextSwept();
            connection.drain();
            connection = next;
        }
        for (TakenOverConnection connection = takenOver; connection != null; ) {
            TakenOverConnection next = connection.next;
            connection.drain();
            connection = next;
        }
    }

    /** Closes every connection now. */
    void closeAll() {
        for (SweptConnection connection = head; connection != null; ) {
            SweptConnection next = connection.nextSwept();
            connection.close();
            connection = next;
        }
        for (TakenOverConnection connection = takenOver; connection != null; ) {
            TakenOverConnection next = connection.next;
            connection.forceClose();
            connection = next;
        }
    }

    private void sweep() {
        long now = System.nanoTime();
        for (SweptConnection connection = head; connection != null; ) {
            SweptConnection next = connection.nextSwept();
            connection.checkDeadlines(now);
            connection = next;
        }
        if (head != null && !loop.isShuttingDown()) {
            loop.schedule(this::sweep, tickNanos, TimeUnit.NANOSECONDS);
        } else {
            scheduled = false;
        }
    }
}
