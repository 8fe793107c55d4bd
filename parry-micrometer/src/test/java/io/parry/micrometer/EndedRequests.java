package io.parry.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.RequestListener;
import io.parry.server.RequestLog;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A listener registered after the metrics: once it has seen a request end, the metrics have recorded
 * it, so tests wait on it instead of sleeping.
 */
final class EndedRequests implements RequestListener {
    private final Semaphore ended = new Semaphore(0);

    @Override
    public void requestEnded(RequestLog log) {
        ended.release();
    }

    /** Waits until {@code count} more requests have ended. */
    void await(int count) throws InterruptedException {
        assertThat(ended.tryAcquire(count, 10, TimeUnit.SECONDS))
                .as("%d requests ended", count)
                .isTrue();
    }
}
