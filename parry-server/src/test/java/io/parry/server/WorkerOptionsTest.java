package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WorkerOptionsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        WorkerOptions workers = WorkerOptions.ofDefault();

        assertThat(workers.virtualThreads()).isTrue();
        assertThat(workers.maxConcurrent()).isEqualTo(10_000);
        assertThat(workers.maxThreads()).isEqualTo(64);
        assertThat(workers.queueSize()).isEqualTo(1_000);
    }

    @Test
    void rejectsANonPositiveConcurrency() {
        assertThatThrownBy(() -> WorkerOptions.builder().maxConcurrent(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConcurrent: 0 (expected: > 0)");
    }

    @Test
    void rejectsANonPositiveThreadCount() {
        assertThatThrownBy(() -> WorkerOptions.builder().maxThreads(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxThreads: -1 (expected: > 0)");
    }

    @Test
    void rejectsANegativeQueueSize() {
        assertThatThrownBy(() -> WorkerOptions.builder().queueSize(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queueSize: -1 (expected: >= 0)");
    }

    @Test
    void acceptsAQueueSizeOfZero() {
        assertThat(WorkerOptions.builder().queueSize(0).build().queueSize()).isZero();
    }

    @Test
    void builderKeepsEveryValue() {
        WorkerOptions workers = WorkerOptions.builder()
                .virtualThreads(false)
                .maxConcurrent(1)
                .maxThreads(2)
                .queueSize(3)
                .build();

        assertThat(workers.virtualThreads()).isFalse();
        assertThat(workers.maxConcurrent()).isEqualTo(1);
        assertThat(workers.maxThreads()).isEqualTo(2);
        assertThat(workers.queueSize()).isEqualTo(3);
    }
}
