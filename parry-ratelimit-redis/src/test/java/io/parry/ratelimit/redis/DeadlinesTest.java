package io.parry.ratelimit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlinesTest {
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    private final Deadlines deadlines = new Deadlines();
    private final List<String> timedOut = new CopyOnWriteArrayList<>();
    private final CountDownLatch done = new CountDownLatch(2);

    @AfterEach
    void stopLoop() {
        loop.shutdownNow();
    }

    @Test
    void timesOutWhatIsUnansweredOnceItsDeadlinePassesAndNothingAnswered() throws Exception {
        long now = System.nanoTime();
        Waiting answered = new Waiting("answered", now + TimeUnit.MILLISECONDS.toNanos(20));
        loop.submit(() -> {
                    deadlines.add(answered, loop);
                    deadlines.add(new Waiting("first", now + TimeUnit.MILLISECONDS.toNanos(30)), loop);
                    deadlines.add(new Waiting("later", now + TimeUnit.MILLISECONDS.toNanos(200)), loop);
                    answered.answered = true;
                })
                .get();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(timedOut).containsExactly("first", "later");
    }

    private final class Waiting implements Deadlines.Waiting {
        private final String name;
        private final long deadline;
        private boolean answered;

        Waiting(String name, long deadline) {
            this.name = name;
            this.deadline = deadline;
        }

        @Override
        public long deadline() {
            return deadline;
        }

        @Override
        public boolean answered() {
            return answered;
        }

        @Override
        public void timedOut() {
            assertThat(System.nanoTime()).isGreaterThanOrEqualTo(deadline);
            timedOut.add(name);
            done.countDown();
        }
    }
}
