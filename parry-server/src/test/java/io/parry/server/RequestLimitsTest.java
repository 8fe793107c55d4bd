package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RequestLimitsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        RequestLimits limits = RequestLimits.ofDefault();

        assertThat(limits.maxInitialLineLength()).isEqualTo(8 * 1024);
        assertThat(limits.maxHeaderSize()).isEqualTo(16 * 1024);
        assertThat(limits.maxHeaderCount()).isEqualTo(100);
        assertThat(limits.maxBodySize()).isEqualTo(10L * 1024 * 1024);
        assertThat(limits.maxConnections()).isEqualTo(10_000);
        assertThat(limits.maxPipelinedRequests()).isEqualTo(16);
    }

    @Test
    void rejectsANonPositiveInitialLineLength() {
        assertThatThrownBy(() -> RequestLimits.builder().maxInitialLineLength(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxInitialLineLength: 0 (expected: > 0)");
    }

    @Test
    void rejectsANonPositiveHeaderSize() {
        assertThatThrownBy(() -> RequestLimits.builder().maxHeaderSize(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxHeaderSize: -1 (expected: > 0)");
    }

    @Test
    void rejectsANonPositiveHeaderCount() {
        assertThatThrownBy(() -> RequestLimits.builder().maxHeaderCount(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxHeaderCount: 0 (expected: > 0)");
    }

    @Test
    void rejectsANonPositiveBodySize() {
        assertThatThrownBy(() ->
                        RequestLimits.builder().maxBodySize(Long.MIN_VALUE).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxBodySize: " + Long.MIN_VALUE + " (expected: > 0)");
    }

    @Test
    void rejectsANonPositiveConnectionCount() {
        assertThatThrownBy(() -> RequestLimits.builder().maxConnections(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConnections: 0 (expected: > 0)");
    }

    @Test
    void rejectsANonPositivePipelineDepth() {
        assertThatThrownBy(
                        () -> RequestLimits.builder().maxPipelinedRequests(-5).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxPipelinedRequests: -5 (expected: > 0)");
    }

    @Test
    void acceptsTheSmallestAndLargestValues() {
        RequestLimits limits = RequestLimits.builder()
                .maxInitialLineLength(1)
                .maxHeaderSize(Integer.MAX_VALUE)
                .maxHeaderCount(1)
                .maxBodySize(Long.MAX_VALUE)
                .maxConnections(1)
                .maxPipelinedRequests(1)
                .build();

        assertThat(limits.maxInitialLineLength()).isEqualTo(1);
        assertThat(limits.maxHeaderSize()).isEqualTo(Integer.MAX_VALUE);
        assertThat(limits.maxBodySize()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void toBuilderRoundTripsEveryLimit() {
        RequestLimits limits = RequestLimits.builder()
                .maxInitialLineLength(1)
                .maxHeaderSize(2)
                .maxHeaderCount(3)
                .maxBodySize(4)
                .maxConnections(5)
                .maxPipelinedRequests(6)
                .build();

        RequestLimits copy = limits.toBuilder().build();

        assertThat(copy).usingRecursiveComparison().isEqualTo(limits);
        assertThat(copy.maxInitialLineLength()).isEqualTo(1);
        assertThat(copy.maxHeaderSize()).isEqualTo(2);
        assertThat(copy.maxHeaderCount()).isEqualTo(3);
        assertThat(copy.maxBodySize()).isEqualTo(4);
        assertThat(copy.maxConnections()).isEqualTo(5);
        assertThat(copy.maxPipelinedRequests()).isEqualTo(6);
    }

    @Test
    void toBuilderChangesOnlyWhatIsSet() {
        RequestLimits limits = RequestLimits.builder().maxHeaderCount(7).build();

        RequestLimits changed = limits.toBuilder().maxBodySize(9).build();

        assertThat(changed.maxHeaderCount()).isEqualTo(7);
        assertThat(changed.maxBodySize()).isEqualTo(9);
        assertThat(limits.maxBodySize()).isEqualTo(RequestLimits.ofDefault().maxBodySize());
    }
}
