package io.parry.http;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;

/** Records the signals it receives, as text, for tests; requests a fixed amount on subscription. */
final class RecordingSubscriber implements Flow.Subscriber<HttpData> {
    private final long initialRequest;
    private final List<String> signals = new ArrayList<>();
    private Flow.Subscription subscription;
    private Throwable failure;

    RecordingSubscriber(long initialRequest) {
        this.initialRequest = initialRequest;
    }

    /** Signals so far: {@code onSubscribe}, {@code onNext:<utf-8 text>}, {@code onError}, {@code onComplete}. */
    List<String> signals() {
        return signals;
    }

    Flow.Subscription subscription() {
        return subscription;
    }

    Throwable failure() {
        return failure;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        signals.add("onSubscribe");
        if (initialRequest > 0) {
            subscription.request(initialRequest);
        }
    }

    @Override
    public void onNext(HttpData item) {
        signals.add("onNext:" + item.toStringUtf8());
    }

    @Override
    public void onError(Throwable throwable) {
        failure = throwable;
        signals.add("onError");
    }

    @Override
    public void onComplete() {
        signals.add("onComplete");
    }
}
