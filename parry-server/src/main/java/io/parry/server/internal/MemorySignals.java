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
 * <p>Direct memory is the fuller of two ledgers, each held to the same maximum ({@code
 * -XX:MaxDirectMemorySize}): the JDK's {@code direct} buffer pool and Netty's own counter. Which
 * buffers each sees depends on the JDK: on 17, Netty's allocator takes its chunks from the JDK's pool
 * and counts them again in its own counter, so the sum would count them twice (and shed at half the
 * budget); on 25 its chunks are in its counter only, which refuses past the maximum by itself. Either
 * way the fuller ledger is the one that runs out first. Every buffer the server and the proxy hold for
 * bodies in flight, or WebSocket frames queued, comes from those.
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
        return Math.max(jdk, PlatformDependent.usedDirectMemory());
    }
}
