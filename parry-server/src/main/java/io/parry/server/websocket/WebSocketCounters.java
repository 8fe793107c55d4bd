package io.parry.server.websocket;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of one endpoint's WebSocket sessions: handshakes refused, sessions opened and open, messages
 * in and out, and how sessions ended ({@link WebSocketEnding}), each counted once. Thread-safe; read by
 * metrics from any thread.
 */
public final class WebSocketCounters {
    private final LongAdder refused = new LongAdder();
    private final LongAdder opened = new LongAdder();
    private final LongAdder open = new LongAdder();
    private final LongAdder messagesIn = new LongAdder();
    private final LongAdder messagesOut = new LongAdder();
    private final Map<WebSocketEnding, LongAdder> endings = new EnumMap<>(WebSocketEnding.class);

    WebSocketCounters() {
        for (WebSocketEnding ending : WebSocketEnding.values()) {
            endings.put(ending, new LongAdder());
        }
    }

    /** Handshakes refused by the endpoint itself: not a valid handshake (400, 426) or a foreign origin (403). */
    public long refused() {
        return refused.sum();
    }

    /** Sessions opened. */
    public long opened() {
        return opened.sum();
    }

    /** Sessions open now. */
    public long open() {
        return open.sum();
    }

    /** Messages received (whole messages, or fragments when they are streamed). */
    public long messagesIn() {
        return messagesIn.sum();
    }

    /** Messages sent. */
    public long messagesOut() {
        return messagesOut.sum();
    }

    /** Sessions that ended this way. */
    public long endings(WebSocketEnding ending) {
        return endings.get(ending).sum();
    }

    void refusedHandshake() {
        refused.increment();
    }

    void sessionOpened() {
        opened.increment();
        open.increment();
    }

    void sessionEnded(WebSocketEnding ending) {
        open.decrement();
        endings.get(ending).increment();
    }

    void messageIn() {
        messagesIn.increment();
    }

    void messageOut() {
        messagesOut.increment();
    }

    @Override
    public String toString() {
        return "WebSocketCounters{opened=" + opened() + ", open=" + open() + ", refused=" + refused() + "}";
    }
}
