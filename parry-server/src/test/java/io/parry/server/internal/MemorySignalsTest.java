package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The direct memory the overload budget reads against what Netty's allocator really takes: once, and
 * close enough to the JVM's maximum that a budget below it sheds before an allocation fails.
 */
class MemorySignalsTest {
    private static final int MIB = 1024 * 1024;

    @Test
    void countsNettysDirectBuffersOnce() {
        MemorySignals signals = new MemorySignals();
        long before = signals.direct();
        List<ByteBuf> held = new ArrayList<>();
        try {
            for (int i = 0; i < 64; i++) {
                held.add(ByteBufAllocator.DEFAULT.directBuffer(64 * 1024, 64 * 1024));
            }
            long grown = signals.direct() - before;

            // Four MiB held, in the allocator's chunks: at most a few chunks more, never twice as much.
            assertThat(grown).isBetween(4L * MIB - 64 * 1024, 6L * MIB);
        } finally {
            held.forEach(ByteBuf::release);
        }
    }

    @Test
    void readsNearlyAllOfASmallDirectMemoryLimitBeforeNettyRunsOutOfIt() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(
                        java.toString(),
                        "-XX:MaxDirectMemorySize=16m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Exhaust.class.getName())
                .redirectErrorStream(true)
                .start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String[] fields = out.substring(out.lastIndexOf('\n') + 1).split(" ");
        assertThat(fields).as(out).hasSize(2);
        long lastRead = Long.parseLong(fields[0]);
        long max = Long.parseLong(fields[1]);

        // What the budget read just before the allocation that failed: within a chunk or two of the
        // maximum, so a directMemory budget of up to nine tenths of it sheds while memory is left.
        assertThat(lastRead).isBetween(max * 9 / 10, max);
    }

    /** Allocates direct buffers until Netty runs out, then prints the last reading and the maximum. */
    static final class Exhaust {
        public static void main(String[] args) throws IOException {
            MemorySignals signals = new MemorySignals();
            List<ByteBuf> held = new ArrayList<>();
            long lastRead = signals.direct();
            try {
                while (held.size() < 100_000) {
                    held.add(ByteBufAllocator.DEFAULT.directBuffer(64 * 1024, 64 * 1024));
                    lastRead = signals.direct();
                }
            } catch (OutOfMemoryError expected) {
                // Netty's OutOfDirectMemoryError on some JDKs, the JDK's own on others.
            }
            System.out.println(lastRead + " " + PlatformDependent.maxDirectMemory());
        }
    }
}
