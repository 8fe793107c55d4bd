package io.parry.client.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutlierDetectionTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        OutlierDetection detection = OutlierDetection.ofDefault();

        assertThat(detection.enabled()).isTrue();
        assertThat(detection.consecutiveFailures()).isEqualTo(5);
        assertThat(detection.ejectionTime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(detection.maxEjectionTime()).isEqualTo(Duration.ofSeconds(300));
        assertThat(detection.maxEjectionPercent()).isEqualTo(50);
    }

    @Test
    void disabledEjectsNoPartOfTheGroup() {
        assertThat(OutlierDetection.disabled().enabled()).isFalse();
        assertThat(OutlierDetection.disabled().maxEjectionPercent()).isZero();
    }

    @Test
    void toBuilderKeepsEverySetting() {
        OutlierDetection detection = OutlierDetection.builder()
                .consecutiveFailures(2)
                .ejectionTime(Duration.ofSeconds(1))
                .maxEjectionTime(Duration.ofSeconds(8))
                .maxEjectionPercent(30)
                .build();

        assertThat(detection.toBuilder().build()).usingRecursiveComparison().isEqualTo(detection);
    }

    @Test
    void rejectsNoFailures() {
        assertThatThrownBy(
                        () -> OutlierDetection.builder().consecutiveFailures(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("consecutiveFailures: 0 (expected: > 0)");
    }

    @Test
    void rejectsAnEjectionTimeThatIsNotPositive() {
        assertThatThrownBy(() ->
                        OutlierDetection.builder().ejectionTime(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ejectionTime: PT0S (expected: > 0)");
    }

    @Test
    void rejectsAMaxEjectionTimeShorterThanTheEjectionTime() {
        assertThatThrownBy(() -> OutlierDetection.builder()
                        .ejectionTime(Duration.ofSeconds(10))
                        .maxEjectionTime(Duration.ofSeconds(5))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxEjectionTime: PT5S (expected: >= ejectionTime PT10S)");
    }

    @Test
    void rejectsAPercentOutside0To100() {
        assertThatThrownBy(
                        () -> OutlierDetection.builder().maxEjectionPercent(101).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxEjectionPercent: 101 (expected: 0..100)");
        assertThatThrownBy(
                        () -> OutlierDetection.builder().maxEjectionPercent(-1).build())
                .hasMessage("maxEjectionPercent: -1 (expected: 0..100)");
    }

    @Test
    void rejectsNullTimesByName() {
        assertThatThrownBy(() -> OutlierDetection.builder().ejectionTime(null)).hasMessage("ejectionTime");
        assertThatThrownBy(() -> OutlierDetection.builder().maxEjectionTime(null))
                .hasMessage("maxEjectionTime");
    }
}
