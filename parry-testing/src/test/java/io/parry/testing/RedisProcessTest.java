package io.parry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A test's redis-server ends with the JVM that started it, even when that JVM is killed. */
class RedisProcessTest {
    @Test
    void endsItsRedisWhenTheJvmThatStartedItIsKilled() throws Exception {
        try (RedisProcess skipUnlessInstalled = RedisProcess.start()) {
            assumeTrue(skipUnlessInstalled.pid() > 0);
        }
        Process jvm = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        StartsRedis.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Optional<ProcessHandle> redis = Optional.empty();
        try {
            String pid = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            assertThat(pid).as("the child JVM's redis-server PID").isNotNull();
            redis = ProcessHandle.of(Long.parseLong(pid));
            assertThat(redis).as("redis-server " + pid).isPresent();

            jvm.destroyForcibly(); // SIGKILL: no shutdown hook runs.
            jvm.waitFor(10, TimeUnit.SECONDS);

            assertThat(redis.get().onExit())
                    .as("redis-server " + pid + " after its JVM was killed")
                    .succeedsWithin(10, TimeUnit.SECONDS);
        } finally {
            jvm.destroyForcibly();
            redis.ifPresent(ProcessHandle::destroyForcibly); // Only if the test failed: it outlived its JVM.
        }
    }

    /** A JVM that starts a redis-server, prints its PID and waits to be killed. */
    static final class StartsRedis {
        public static void main(String[] args) throws Exception {
            RedisProcess redis = RedisProcess.start();
            System.out.println(redis.pid());
            System.out.flush();
            Thread.sleep(TimeUnit.SECONDS.toMillis(60));
            redis.close();
        }
    }
}
