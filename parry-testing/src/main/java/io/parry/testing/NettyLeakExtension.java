package io.parry.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reports a leaked buffer while it ran. Detection runs at the
 * paranoid level (every buffer tracked); after the class, a garbage collection is forced and
 * awaited so unreleased buffers are found. Registered automatically (service loader) for every
 * test that has {@code parry-testing} on its class path.
 */
public final class NettyLeakExtension implements BeforeAllCallback, AfterAllCallback {
    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

    static {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        LEAKS.clear();
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        collectGarbage();
        // Leak reports are made when a tracked buffer is next allocated.
        ByteBufAllocator.DEFAULT.buffer(1).release();
        ByteBufAllocator.DEFAULT.directBuffer(1).release();
        if (!LEAKS.isEmpty()) {
            List<String> found = new ArrayList<>(LEAKS);
            LEAKS.clear();
            throw new AssertionError(
                    "LEAK: Netty reported " + found.size() + " leaked buffer(s):\n" + String.join("\n", found));
        }
    }

    /** Waits, on a reference-queue event, until a collection has run. */
    private static void collectGarbage() throws InterruptedException {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        for (int attempt = 0; attempt < 10 && queue.remove(100) == null; attempt++) {
            System.gc();
        }
        sentinel.clear();
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        // Netty deprecates this method but keeps it abstract: every factory must implement it.
        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(
                Class<T> resource, int samplingInterval, long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add(resourceType + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add(resourceType);
            super.reportUntracedLeak(resourceType);
        }
    }
}
