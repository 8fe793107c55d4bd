package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.OverloadReason;
import io.parry.server.Priority;
import org.junit.jupiter.api.Test;

/** The per-priority verdict of the sampled signals, with its hysteresis. */
class OverloadVerdictTest {
    private static final int LAG = OverloadReason.EVENT_LOOP_LAG.ordinal() + 1;
    private static final int HEAP = OverloadReason.HEAP.ordinal() + 1;

    @Test
    void shedsSheddableRoutesBeforeNormalAndCriticalOnes() {
        double[] ratios = ratios(0.8, 0);

        assertThat(OverloadState.verdict(0, ratios, Priority.SHEDDABLE.fraction(), 0.8))
                .isEqualTo(LAG);
        assertThat(OverloadState.verdict(0, ratios, Priority.NORMAL.fraction(), 0.8))
                .isZero();
        assertThat(OverloadState.verdict(0, ratios, Priority.CRITICAL.fraction(), 0.8))
                .isZero();
    }

    @Test
    void keepsSheddingUntilTheSignalFallsBelowItsRecoveryLevel() {
        double fraction = Priority.NORMAL.fraction();

        assertThat(OverloadState.verdict(LAG, ratios(0.85, 0), fraction, 0.8)).isEqualTo(LAG);
        assertThat(OverloadState.verdict(LAG, ratios(0.79, 0), fraction, 0.8)).isZero();
        assertThat(OverloadState.verdict(0, ratios(0.85, 0), fraction, 0.8)).isZero();
    }

    @Test
    void movesToAnotherSignalWhenTheFirstRecovers() {
        assertThat(OverloadState.verdict(LAG, ratios(0.1, 1.5), Priority.NORMAL.fraction(), 0.8))
                .isEqualTo(HEAP);
    }

    private static double[] ratios(double lag, double heap) {
        double[] ratios = new double[OverloadReason.values().length];
        ratios[OverloadReason.EVENT_LOOP_LAG.ordinal()] = lag;
        ratios[OverloadReason.HEAP.ordinal()] = heap;
        return ratios;
    }
}
