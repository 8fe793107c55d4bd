package io.parry.server.sse;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * One server-sent event (the HTML standard's {@code text/event-stream}): its data, and optionally an
 * id (which a reconnecting client sends back as {@code Last-Event-ID}), an event type and a reconnection
 * delay. Immutable.
 *
 * <pre>{@code
 * ServerSentEvent.of("tick 3").withId("3").withEvent("tick")
 * }</pre>
 */
public final class ServerSentEvent {
    private final String id;
    private final String event;
    private final String data;
    private final Duration retry;

    private ServerSentEvent(String id, String event, String data, Duration retry) {
        this.id = id;
        this.event = event;
        this.data = data;
        this.retry = retry;
    }

    /** An event with this data; each line of it becomes a {@code data:} line. */
    public static ServerSentEvent of(String data) {
        return new ServerSentEvent(null, null, requireNonNull(data, "data"), null);
    }

    /**
     * This event with an id.
     *
     * @throws IllegalArgumentException if the id holds a line break or NUL, which the format cannot carry
     */
    public ServerSentEvent withId(String id) {
        requireNonNull(id, "id");
        if (id.indexOf('\n') >= 0 || id.indexOf('\r') >= 0 || id.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("id: holds a line break or NUL");
        }
        return new ServerSentEvent(id, event, data, retry);
    }

    /**
     * This event with an event type (the client's listener name).
     *
     * @throws IllegalArgumentException if the type holds a line break
     */
    public ServerSentEvent withEvent(String event) {
        requireNonNull(event, "event");
        if (event.indexOf('\n') >= 0 || event.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("event: holds a line break");
        }
        return new ServerSentEvent(id, event, data, retry);
    }

    /** This event with the delay a client waits before it reconnects, in whole milliseconds. */
    public ServerSentEvent withRetry(Duration retry) {
        if (retry.isNegative()) {
            throw new IllegalArgumentException("retry: " + retry + " (expected: >= 0)");
        }
        return new ServerSentEvent(id, event, data, retry);
    }

    /** The id, or {@code null}. */
    public String id() {
        return id;
    }

    /** The event type, or {@code null} for the default {@code message}. */
    public String event() {
        return event;
    }

    /** The data. */
    public String data() {
        return data;
    }

    /** The reconnection delay, or {@code null}. */
    public Duration retry() {
        return retry;
    }

    /** The event in the stream's format, ending with the blank line that dispatches it. */
    String format() {
        StringBuilder text = new StringBuilder(data.length() + 32);
        if (id != null) {
            text.append("id: ").append(id).append('\n');
        }
        if (event != null) {
            text.append("event: ").append(event).append('\n');
        }
        if (retry != null) {
            text.append("retry: ").append(retry.toMillis()).append('\n');
        }
        int start = 0;
        for (int i = 0; i <= data.length(); i++) {
            char c = i < data.length() ? data.charAt(i) : '\n';
            if (c == '\n' || c == '\r') {
                text.append("data: ").append(data, start, i).append('\n');
                if (c == '\r' && i + 1 < data.length() && data.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        return text.append('\n').toString();
    }

    @Override
    public String toString() {
        return "ServerSentEvent{id=" + id + ", event=" + event + ", data=" + data + ", retry=" + retry + "}";
    }
}
