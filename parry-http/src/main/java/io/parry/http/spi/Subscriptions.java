package io.parry.http.spi;

import java.util.concurrent.Flow;

/** Signals shared by Parry's publishers. */
public final class Subscriptions {
    /** A subscription that does nothing, for subscribers that are refused at once. */
    public static final Flow.Subscription NOOP = new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    };

    private Subscriptions() {}

    /** Refuses a subscriber as Reactive Streams rule 1.9 asks: onSubscribe first, then onError. */
    public static void reject(Flow.Subscriber<?> subscriber, Throwable cause) {
        subscriber.onSubscribe(NOOP);
        subscriber.onError(cause);
    }
}
