package io.parry.client.upstream.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.upstream.OutlierDetection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OutlierEjectorTest {
    private final AtomicInteger ejected = new AtomicInteger();
    private final EndpointState a = new EndpointState(Endpoint.of("10.0.0.1", 80), ejected);
    private final EndpointState b = new EndpointState(Endpoint.of("10.0.0.2", 80), ejected);

    @Test
    void doublesTheEjectionTimeUpToTheMaximum() {
        OutlierEjector ejector = ejector(OutlierDetection.builder()
                .ejectionTime(Duration.ofSeconds(30))
                .maxEjectionTime(Duration.ofSeconds(300))
                .build());

        assertThat(ejector.ejectionNanos(0)).isEqualTo(Duration.ofSeconds(30).toNanos());
        assertThat(ejector.ejectionNanos(1)).isEqualTo(Duration.ofSeconds(60).toNanos());
        assertThat(ejector.ejectionNanos(3)).isEqualTo(Duration.ofSeconds(240).toNanos());
        assertThat(ejector.ejectionNanos(4)).isEqualTo(Duration.ofSeconds(300).toNanos());
        assertThat(ejector.ejectionNanos(Integer.MAX_VALUE))
                .isEqualTo(Duration.ofSeconds(300).toNanos());
    }

    @Test
    void keepsDeadlinesComparableForAbsurdlyLongEjections() {
        OutlierEjector ejector = ejector(OutlierDetection.builder()
                .ejectionTime(Duration.ofDays(365L * 1000))
                .maxEjectionTime(Duration.ofDays(365L * 2000))
                .build());

        assertThat(ejector.ejectionNanos(5)).isEqualTo(Long.MAX_VALUE / 4);
    }

    @Test
    void countsConsecutiveEjectionsUntilASuccess() {
        OutlierEjector ejector = ejector(OutlierDetection.builder()
                .consecutiveFailures(1)
                .ejectionTime(Duration.ofNanos(1))
                .build());

        ejector.onFailure(a);
        assertThat(a.consecutiveEjections()).isEqualTo(1);
        assertThat(a.isEjected()).as("ejection of 1 ns ended").isFalse();
        ejector.onFailure(a);
        assertThat(a.consecutiveEjections()).isEqualTo(2);

        a.isEjected();
        ejector.onSuccess(a);
        assertThat(a.consecutiveEjections()).isZero();
    }

    @Test
    void freesTheBudgetWhenAnEjectionEnds() {
        OutlierEjector ejector =
                ejector(OutlierDetection.builder().consecutiveFailures(1).build());
        ejector.onFailure(a);
        ejector.onFailure(b);
        assertThat(ejected).hasValue(1);
        assertThat(b.isEjected()).isFalse();

        a.endEjection();
        ejector.onFailure(b);

        assertThat(b.isEjected()).isTrue();
        assertThat(ejected).hasValue(1);
    }

    private OutlierEjector ejector(OutlierDetection detection) {
        return new OutlierEjector("test", detection, new EndpointState[] {a, b}, ejected);
    }
}
