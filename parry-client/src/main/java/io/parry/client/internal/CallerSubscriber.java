package io.parry.client.internal;

import io.parry.http.HttpData;
import io.parry.transport.spi.CallerContext;
import java.util.concurrent.Flow;

/**
 * A response body's reader told each signal with the caller's context current, as the call's own
 * stage completes: stages chained on {@code aggregate()} then see the request's MDC too.
 */
final class CallerSubscriber implements Flow.Subscriber<HttpData> {
    private final Flow.Subscriber<? super HttpData> reader;
    private final CallerContext caller;

    private CallerSubscriber(Flow.Subscriber<? super HttpData> reader, CallerContext caller) {
        this.reader = reader;
        this.caller = caller;
    }

    /** The reader, told its signals in the caller's context when there is a caller. */
    static Flow.Subscriber<? super HttpData> of(Flow.Subscriber<? super HttpData> reader, CallerContext caller) {
        return caller == null ? reader : new CallerSubscriber(reader, caller);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        Object previous = caller.enter();
        try {
            reader.onSubscribe(subscription);
        } finally {
            caller.exit(previous);
        }
    }

    @Override
    public void onNext(HttpData item) {
        Object previous = caller.enter();
        try {
            reader.onNext(item);
        } finally {
            caller.exit(previous);
        }
    }

    @Override
    public void onError(Throwable failure) {
        Object previous = caller.enter();
        try {
            reader.onError(failure);
        } finally {
            caller.exit(previous);
        }
    }

    @Override
    public void onComplete() {
        Object previous = caller.enter();
        try {
            reader.onComplete();
        } finally {
            caller.exit(previous);
        }
    }
}
