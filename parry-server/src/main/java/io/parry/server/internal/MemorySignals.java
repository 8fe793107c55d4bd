package io.parry.server.internal;

import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * Reads the heap in use after the last garbage collections and the direct memory in use; once per
 * sample, never per request.
 *
 * <p>Direct memory is what {@code -XX:MaxDirectMemorySize} limits (the JDK's {@code direct} buffer
 * pool, where Netty's pooled arenas take their chunks when it uses the JDK's cleaner) plus what Netty
 * allocates without the cleaner, which only its own counter sees. Every buffer the server and the
 * proxy hold for bodies in flight, or WebSocket frames queued, comes from those, so the sum is the
 * budget's measure; the pooled allocator's own {@code usedDirectMemory} is a part of it.
 */
final class MemorySignals {
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported())
            .toList();
    private final BufferPoolMXBean directPool = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .findFirst()
            .orElse(null);
    private final long maxHeap = Runtime.getRuntime().maxMemory();

    /** The share of the maximum heap in use after each pool's last collection. */
    double heapAfterGc() {
        long used = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage usage = pool.getCollectionUsage();
            if (usage != null) {
                used += usage.getUsed();
            }
        }
        return (double) used / maxHeap;
    }

    /** The bytes of direct memory in use. */
    long direct() {
        long jdk = directPool == null ? 0 : directPool.getMemoryUsed();
        return jdk + Math.max(0, PlatformDependent.usedDirectMemory());
    }
}
