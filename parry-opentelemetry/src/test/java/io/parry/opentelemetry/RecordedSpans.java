package io.parry.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * An OpenTelemetry SDK that keeps the spans it ends in memory, and lets a test wait for them: a
 * server span ends after the response was written, so after the client may have read it.
 */
final class RecordedSpans implements AutoCloseable {
    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final Semaphore ended = new Semaphore(0);
    private final OpenTelemetrySdk sdk;

    RecordedSpans() {
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .addSpanProcessor(new Signal())
                .build();
        sdk = OpenTelemetrySdk.builder().setTracerProvider(provider).build();
    }

    OpenTelemetry openTelemetry() {
        return sdk;
    }

    /** The spans ended since the last {@link #clear()}, once there are {@code count} of them. */
    List<SpanData> await(int count) throws InterruptedException {
        assertThat(ended.tryAcquire(count, 5, TimeUnit.SECONDS))
                .as("%s spans ended; got %s", count, exporter.getFinishedSpanItems())
                .isTrue();
        ended.release(count);
        return exporter.getFinishedSpanItems();
    }

    void clear() {
        ended.drainPermits();
        exporter.reset();
    }

    @Override
    public void close() {
        sdk.close();
    }

    /** Counts spans as they end, after the exporter has them (processors run in the order added). */
    private final class Signal implements SpanProcessor {
        @Override
        public void onStart(Context parentContext, ReadWriteSpan span) {}

        @Override
        public boolean isStartRequired() {
            return false;
        }

        @Override
        public void onEnd(ReadableSpan span) {
            ended.release();
        }

        @Override
        public boolean isEndRequired() {
            return true;
        }
    }
}
