package io.parry.testing;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a {@link FaultyUpstream} answers a request: normally, with another status, slowly, or by
 * breaking the connection at a chosen point. Faults are immutable values; the upstream picks one
 * for each request once it has read the request completely.
 *
 * <p>Faults that send part of a body send the first half (rounded down) of the upstream's
 * configured body after a head that declares its full {@code Content-Length}.
 *
 * <pre>{@code
 * upstream.fault(Fault.resetMidBody());
 * upstream.faultFirst(2, Fault.status(503));
 * }</pre>
 */
public final class Fault {
    enum Kind {
        NONE,
        STATUS,
        SLOW_FIRST_BYTE,
        SLOW_BODY,
        RESET_MID_BODY,
        CLOSE_MID_BODY,
        GARBAGE,
        CLOSE_BEFORE_RESPONSE,
        CLOSE_AFTER_RESPONSE
    }

    private static final Fault NONE = new Fault(Kind.NONE, Duration.ZERO, 0);

    private final Kind kind;
    private final Duration delay;
    private final int status;

    private Fault(Kind kind, Duration delay, int status) {
        this.kind = kind;
        this.delay = delay;
        this.status = status;
    }

    /** No fault: the configured response, and the connection stays open for the next request. */
    public static Fault none() {
        return NONE;
    }

    /**
     * Answers with this status and an empty body; the connection stays open.
     *
     * @throws IllegalArgumentException if the status is not within 200 to 599
     */
    public static Fault status(int status) {
        return new Fault(Kind.STATUS, Duration.ZERO, CannedResponse.checkStatus(status));
    }

    /** Waits this long before sending any byte of the configured response. */
    public static Fault slowFirstByte(Duration delay) {
        return new Fault(Kind.SLOW_FIRST_BYTE, checkDelay(delay), 0);
    }

    /** Sends the head and half the body, waits this long, then sends the rest. */
    public static Fault slowBody(Duration delay) {
        return new Fault(Kind.SLOW_BODY, checkDelay(delay), 0);
    }

    /**
     * Sends the head and half the body, then resets the connection (TCP RST), so the client's next
     * read fails with "Connection reset". On loopback the partial body arrives before the reset.
     */
    public static Fault resetMidBody() {
        return new Fault(Kind.RESET_MID_BODY, Duration.ZERO, 0);
    }

    /** Sends the head and half the body, then closes the connection cleanly (TCP FIN). */
    public static Fault closeMidBody() {
        return new Fault(Kind.CLOSE_MID_BODY, Duration.ZERO, 0);
    }

    /** Answers with a line of bytes that is not an HTTP response, then closes the connection. */
    public static Fault garbage() {
        return new Fault(Kind.GARBAGE, Duration.ZERO, 0);
    }

    /** Closes the connection (FIN) after reading the request, without answering. */
    public static Fault closeBeforeResponse() {
        return new Fault(Kind.CLOSE_BEFORE_RESPONSE, Duration.ZERO, 0);
    }

    /**
     * Sends the configured response without {@code Connection: close}, then closes the connection
     * (FIN) at once, so a client that pooled the connection finds it dead while idle.
     */
    public static Fault closeAfterResponse() {
        return new Fault(Kind.CLOSE_AFTER_RESPONSE, Duration.ZERO, 0);
    }

    Kind kind() {
        return kind;
    }

    Duration delay() {
        return delay;
    }

    int status() {
        return status;
    }

    @Override
    public String toString() {
        return "Fault."
                + switch (kind) {
                    case NONE -> "none()";
                    case STATUS -> "status(" + status + ")";
                    case SLOW_FIRST_BYTE -> "slowFirstByte(" + delay + ")";
                    case SLOW_BODY -> "slowBody(" + delay + ")";
                    case RESET_MID_BODY -> "resetMidBody()";
                    case CLOSE_MID_BODY -> "closeMidBody()";
                    case GARBAGE -> "garbage()";
                    case CLOSE_BEFORE_RESPONSE -> "closeBeforeResponse()";
                    case CLOSE_AFTER_RESPONSE -> "closeAfterResponse()";
                };
    }

    private static Duration checkDelay(Duration delay) {
        requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay: " + delay + " (expected: >= 0)");
        }
        return delay;
    }
}
