package io.parry.server.internal;

import io.parry.server.RequestListener;
import io.parry.server.RequestLog;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's request listeners, called in order. A listener that throws is logged at WARN the first
 * time and at DEBUG after that, so a broken listener cannot flood the log from every event loop.
 */
final class RequestListeners {
    private static final Logger log = LoggerFactory.getLogger("io.parry.server.listeners");

    private final RequestListener[] listeners;
    private final AtomicIntegerArray warned;

    RequestListeners(List<RequestListener> listeners) {
        this.listeners = listeners.toArray(new RequestListener[0]);
        this.warned = new AtomicIntegerArray(this.listeners.length);
    }

    boolean isEmpty() {
        return listeners.length == 0;
    }

    void ended(RequestLog requestLog) {
        for (int i = 0; i < listeners.length; i++) {
            try {
                listeners[i].requestEnded(requestLog);
            } catch (Throwable t) {
                failed(i, t);
            }
        }
    }

    private void failed(int index, Throwable failure) {
        if (warned.compareAndSet(index, 0, 1)) {
            log.warn("Request listener {} failed; later failures are logged at DEBUG", listeners[index], failure);
        } else {
            log.debug("Request listener {} failed", listeners[index], failure);
        }
    }
}
