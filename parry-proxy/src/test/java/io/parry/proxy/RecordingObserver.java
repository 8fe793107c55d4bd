package io.parry.proxy;

import io.parry.client.Endpoint;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts what a {@link ProxyObserver} is told: failed attempts, retries and client endings. */
final class RecordingObserver implements ProxyObserver {
    private final AtomicInteger failedAttempts = new AtomicInteger();
    private final AtomicInteger retries = new AtomicInteger();
    private final Map<ClientEnding, AtomicInteger> endings = new EnumMap<>(ClientEnding.class);

    RecordingObserver() {
        for (ClientEnding ending : ClientEnding.values()) {
            endings.put(ending, new AtomicInteger());
        }
    }

    @Override
    public void attemptEnded(String upstream, Endpoint endpoint, int status, Throwable failure, long nanos) {
        if (failure != null) {
            failedAttempts.incrementAndGet();
        }
    }

    @Override
    public void retried(String upstream, Endpoint endpoint, String reason) {
        retries.incrementAndGet();
    }

    @Override
    public void clientEnded(String upstream, ClientEnding ending) {
        endings.get(ending).incrementAndGet();
    }

    int failedAttempts() {
        return failedAttempts.get();
    }

    int retries() {
        return retries.get();
    }

    int ended(ClientEnding ending) {
        return endings.get(ending).get();
    }

    int clientEndings() {
        return endings.values().stream().mapToInt(AtomicInteger::get).sum();
    }
}
